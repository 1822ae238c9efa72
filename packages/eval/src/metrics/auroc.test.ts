import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { auroc, AurocTally } from './auroc.js';

/** P(positive > negative) + ½ P(tie), over all pairs: the definition, written out. */
function pairwise(positive: number[], negative: number[]): number {
  let wins = 0;
  for (const p of positive) for (const n of negative) wins += p > n ? 1 : p === n ? 0.5 : 0;
  return wins / (positive.length * negative.length);
}

describe('auroc', () => {
  it('matches hand-checked cases, ties counting one half', () => {
    expect(auroc([0.9, 0.8], [0.1, 0.2])).toBe(1);
    expect(auroc([0.1], [0.9])).toBe(0);
    // Pairs: (0.5, 0.5) tie ½, (0.5, 0.2) 1, (0.7, 0.5) 1, (0.7, 0.2) 1 → 3.5 / 4.
    expect(auroc([0.5, 0.7], [0.5, 0.2])).toBe(0.875);
    expect(auroc([0.4, 0.4, 0.4], [0.4])).toBe(0.5);
    expect(auroc([], [0.3])).toBeNaN();
  });

  it('equals the Mann–Whitney statistic over all pairs (property)', () => {
    const scores = fc.array(
      fc.integer({ min: 0, max: 8 }).map((value) => value / 8),
      { minLength: 1, maxLength: 20 },
    );
    fc.assert(
      fc.property(scores, scores, (positive, negative) => {
        expect(auroc(positive, negative)).toBeCloseTo(pairwise(positive, negative), 12);
      }),
    );
  });

  it('accumulates exactly, then in bins past its limit with a close value and a flag', () => {
    const exact = new AurocTally();
    const binned = new AurocTally({ exactLimit: 100, bins: 1000 });
    const positive: number[] = [];
    const negative: number[] = [];
    for (let index = 0; index < 2000; index++) {
      const score = Math.sin(index * 12.9898) * 0.5 + 0.5;
      const isPositive = index % 3 !== 0;
      const shifted = isPositive ? Math.min(1, score + 0.2) : score;
      (isPositive ? positive : negative).push(shifted);
      exact.add(shifted, isPositive);
      binned.add(shifted, isPositive);
    }
    expect(exact.result().auroc).toBeCloseTo(pairwise(positive, negative), 10);
    expect(exact.result().binned).toBeUndefined();
    expect(binned.result().binned).toMatchObject({ bins: 1000 });
    expect(Math.abs(binned.result().auroc - exact.result().auroc)).toBeLessThan(0.005);
  });
});
