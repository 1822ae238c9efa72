import { describe, expect, it } from 'vitest';
import { firstBelow } from './first-below.js';
import { harmonicMean, ProcessBenchTally } from './processbench-tally.js';

describe("ProcessBench's metric", () => {
  it('matches a hand-checked case', () => {
    // Erroneous items (label, prediction): (1, 1) exact, (2, 0) early, (0, 3) late, (2, -1) missed → 1/4.
    // Correct items: (-1, -1) ×2 clean, (-1, 4) false alarm → 2/3. F1 = 2·(1/4)(2/3)/(1/4 + 2/3) = 4/11.
    const tally = new ProcessBenchTally();
    for (const [label, prediction] of [
      [1, 1],
      [2, 0],
      [0, 3],
      [2, -1],
      [-1, -1],
      [-1, -1],
      [-1, 4],
    ] as const) {
      tally.add(label, prediction);
    }
    const metrics = tally.metrics();
    expect(metrics.errorAccuracy).toBe(0.25);
    expect(metrics.correctAccuracy).toBeCloseTo(2 / 3, 15);
    expect(metrics.f1).toBeCloseTo(4 / 11, 15);
    expect(metrics.confusion).toEqual({ erroneous: { exact: 1, early: 1, late: 1, missed: 1 }, correct: { clean: 2, falseAlarm: 1 } });
    expect([metrics.erroneousItems, metrics.correctItems]).toEqual([4, 3]);
  });

  it('reproduces the RLHFlow script on predictions from step judgments', () => {
    // run_eval_prm_rlhflow.py predicts the first step not judged "+": with P(+) and a 0.5 cut, firstBelow.
    const items = [
      { label: 1, scores: [0.9, 0.2, 0.1] }, // predicted 1: match
      { label: -1, scores: [0.8, 0.7, 0.6] }, // predicted -1: match
      { label: -1, scores: [0.8, 0.4, 0.9] }, // predicted 1: no match
      { label: 0, scores: [0.7, 0.9] }, // predicted -1: no match
    ];
    const tally = new ProcessBenchTally();
    for (const item of items) tally.add(item.label, firstBelow(item.scores, 0.5));
    // acc1 = mean([True, False]) = 50, acc2 = mean([True, False]) = 50, f1 = 2·50·50/100 = 50.
    expect(tally.metrics()).toMatchObject({ errorAccuracy: 0.5, correctAccuracy: 0.5, f1: 0.5 });
  });

  it('gives NaN for an empty side, as numpy.mean of nothing, and 0 for the harmonic mean of zeros', () => {
    const onlyCorrect = new ProcessBenchTally();
    onlyCorrect.add(-1, -1);
    expect(onlyCorrect.metrics().errorAccuracy).toBeNaN();
    expect(onlyCorrect.metrics().f1).toBeNaN();
    expect(harmonicMean(0, 0)).toBe(0);
    expect(harmonicMean(1, 0.5)).toBeCloseTo(2 / 3, 15);
  });

  it('predicts the first step strictly below the threshold; an unscored step is never below', () => {
    expect(firstBelow([0.9, 0.5, 0.4], 0.5)).toBe(2);
    expect(firstBelow([0.9, Number.NaN, 0.4], 0.5)).toBe(2);
    expect(firstBelow([0.9, 0.8], 0.5)).toBe(-1);
    expect(firstBelow([], 0.5)).toBe(-1);
  });
});
