import { describe, expect, it } from 'vitest';
import { wilsonInterval } from '../metrics/wilson-interval.js';
import { bestOfNCurves } from './best-of-n.js';
import { OutcomeDriftTally } from './outcome-drift.js';
import { verificationIndex } from './verification-index.js';

describe('outcome drift', () => {
  it('bins the relative position of the lowest step and warns when it is almost always the last', () => {
    const tally = new OutcomeDriftTally();
    for (let index = 0; index < 19; index++) tally.add([0.9, 0.8, 0.1], 1);
    tally.add([0.1, 0.8, 0.9], 0);
    tally.add([0.5], -1); // one step: says nothing about position
    const drift = tally.result();
    expect(drift.items).toBe(20);
    expect(drift.lastStepFraction).toBe(0.95);
    expect(drift.lastStepFractionByChance).toBeCloseTo(1 / 3, 12);
    expect(drift.histogram[9]!.count).toBe(19);
    expect(drift.histogram[0]!.count).toBe(1);
    expect(drift.argminAtLabel).toEqual({ hits: 1, items: 20, fraction: 0.05 });
    expect(drift.warning).toMatch(/outcome reward model with extra steps/);
  });

  it('does not warn when the lowest step moves', () => {
    const tally = new OutcomeDriftTally();
    tally.add([0.1, 0.5, 0.9]);
    tally.add([0.5, 0.1, 0.9]);
    expect(tally.result().warning).toBeUndefined();
  });
});

describe('verification index', () => {
  it('counts pairs where the flawed step scores lower, ties not lower, with a Wilson interval', () => {
    const result = verificationIndex([
      { flawed: 0.1, clean: 0.9 },
      { flawed: 0.5, clean: 0.5 },
      { flawed: 0.8, clean: 0.2 },
      { flawed: 0.3, clean: 0.4 },
      { flawed: Number.NaN, clean: 0.4 },
    ]);
    expect(result).toMatchObject({ index: 0.5, lower: 2, ties: 1, pairs: 4 });
    expect(result.interval).toEqual(wilsonInterval(2, 4));
  });

  it('Wilson interval: a published value (Newcombe 1998, 81/263)', () => {
    // Newcombe (1998), Statistics in Medicine 17:857, table I: 81/263 → 0.2553 to 0.3662.
    const interval = wilsonInterval(81, 263);
    expect(interval.low).toBeCloseTo(0.2553, 4);
    expect(interval.high).toBeCloseTo(0.3662, 4);
  });
});

describe('best-of-N curves', () => {
  it('picks by each rule; with the whole pool the pick is deterministic', () => {
    const problems = [
      {
        candidates: [
          { stepScores: [0.9, 0.2], finalCorrect: true, processCorrect: false },
          { stepScores: [0.6, 0.6], finalCorrect: true, processCorrect: true },
          { stepScores: [0.95, 0.95], finalCorrect: false, processCorrect: false, outcomeScore: -1 },
        ],
      },
    ];
    const curves = bestOfNCurves(problems, { ns: [3] });
    const byRule = Object.fromEntries(curves.points.map((point) => [point.rule, point]));
    // min: 0.2 / 0.6 / 0.95 → the wrong third; outcome baseline: 0.2 / 0.6 / -1 → the clean second.
    expect(byRule.min).toMatchObject({ finalAccuracy: 0, processCorrect: 0 });
    expect(byRule.outcome).toMatchObject({ finalAccuracy: 1, processCorrect: 1, rightAnswerFlawedProcess: 0 });
    expect(curves.random.finalAccuracy).toBeCloseTo(2 / 3, 12);
    expect(curves.meanSampledSteps).toBe(2);
  });

  it('at N = 1 every rule is a random pick', () => {
    const problems = Array.from({ length: 200 }, (_, index) => ({
      candidates: [
        { stepScores: [index % 7], finalCorrect: true, processCorrect: true },
        { stepScores: [(index * 3) % 5], finalCorrect: false, processCorrect: false },
      ],
    }));
    const curves = bestOfNCurves(problems, { ns: [1], resamples: 50, seed: 1 });
    for (const point of curves.points) expect(Math.abs(point.finalAccuracy - 0.5)).toBeLessThan(0.03);
  });
});
