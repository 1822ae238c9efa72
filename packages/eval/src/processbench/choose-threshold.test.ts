import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CalibrationLeakError } from '../errors/calibration-leak-error.js';
import { ProcessBenchEvaluator } from '../evaluate/processbench-evaluation.js';
import { chooseThreshold, fixedThreshold, type ScoredItem } from './choose-threshold.js';
import { firstBelow } from './first-below.js';
import { ProcessBenchTally } from './processbench-tally.js';

const item = (id: string, label: number, stepScores: number[]): ScoredItem => ({
  id,
  problem: `problem ${id}`,
  steps: stepScores.map((_, step) => `step ${step}`),
  label,
  stepScores,
});

function f1At(items: readonly ScoredItem[], threshold: number): number {
  const tally = new ProcessBenchTally();
  for (const entry of items) tally.add(entry.label, firstBelow(entry.stepScores, threshold));
  return tally.metrics().f1;
}

describe('chooseThreshold', () => {
  it('finds the best threshold of a hand-checked split and reports where it came from', () => {
    const items = [item('a', -1, [0.9, 0.8]), item('b', -1, [0.7, 0.6]), item('c', 1, [0.8, 0.3]), item('d', 0, [0.4, 0.9])];
    // Thresholds in (0.4, 0.6] get every item right: c and d flagged at their labels, a and b clean.
    const chosen = chooseThreshold(items, { name: 'hand split' });
    expect(chosen.value).toBeGreaterThan(0.4);
    expect(chosen.value).toBeLessThanOrEqual(0.6);
    expect(chosen.source).toMatchObject({ kind: 'calibration', name: 'hand split', items: 4, f1: 1, errorAccuracy: 1, correctAccuracy: 1 });
    expect(f1At(items, chosen.value)).toBe(1);
  });

  it('reaches the best F1 any threshold reaches (exhaustive check on random splits)', () => {
    const scores = fc.array(
      fc.integer({ min: 0, max: 20 }).map((value) => value / 20),
      { minLength: 1, maxLength: 5 },
    );
    const items = fc.array(
      scores.chain((stepScores) => fc.integer({ min: -1, max: stepScores.length - 1 }).map((label) => ({ stepScores, label }))),
      { minLength: 1, maxLength: 12 },
    );
    fc.assert(
      fc.property(items, (generated) => {
        const split = generated.map((entry, index) => item(String(index), entry.label, entry.stepScores));
        const chosen = chooseThreshold(split, { name: 'random' });
        // Every threshold that matters lies on the 1/40 grid between scores (which are multiples of 1/20).
        let best = Number.NEGATIVE_INFINITY;
        for (let grid = -1; grid <= 42; grid++) {
          const f1 = f1At(split, grid / 40);
          if (!Number.isNaN(f1)) best = Math.max(best, f1);
        }
        const reached = f1At(split, chosen.value);
        if (best === Number.NEGATIVE_INFINITY) return Number.isNaN(reached);
        expect(reached).toBeCloseTo(best, 12);
        expect(chosen.source.kind === 'calibration' && chosen.source.f1).toBeCloseTo(reached, 12);
      }),
      { numRuns: 300 },
    );
  });

  it('refuses to score a solution of the calibration split with its threshold', () => {
    const calibration = [item('a', -1, [0.9, 0.8]), item('c', 1, [0.8, 0.3])];
    const evaluator = new ProcessBenchEvaluator({ threshold: chooseThreshold(calibration, { name: 'calibration half' }) });
    evaluator.add(item('other', -1, [0.9, 0.9]));
    // Same content under another id is still the same solution.
    expect(() => evaluator.add({ ...item('c', 1, [0.8, 0.3]), id: 'renamed' })).toThrow(CalibrationLeakError);
    expect(() => evaluator.add({ ...item('c', 1, [0.8, 0.3]), id: 'renamed' })).toThrow(/calibration split "calibration half"/);
  });

  it('takes a fixed threshold only with a reason, and reports it', () => {
    const evaluator = new ProcessBenchEvaluator({ threshold: fixedThreshold(0.5, 'the model card') });
    evaluator.add(item('x', 0, [0.2, 0.9]));
    expect(evaluator.result().threshold).toEqual({ value: 0.5, source: 'fixed: the model card' });
    expect(() => fixedThreshold(Number.NaN, 'no')).toThrow(/finite/);
  });
});
