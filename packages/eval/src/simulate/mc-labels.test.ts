import { describe, expect, it } from 'vitest';
import { mcLabelsClosedForm, simulateMcLabels } from './mc-labels.js';

describe('simulateMcLabels', () => {
  const rows = simulateMcLabels({ seed: 0 });

  it('gives one row per (c, N), in the order of the issue', () => {
    expect(rows.map((row) => [row.c, row.n])).toEqual([0.9, 0.7].flatMap((c) => [1, 2, 4, 8, 16, 32, 64].map((n) => [c, n])));
  });

  it('matches the closed-form probabilities within sampling error', () => {
    for (const row of rows) {
      const exact = mcLabelsClosedForm(row.c, row.n);
      // 4,000 solutions × 8 steps: binomial standard errors are below 0.01 for every rate here; 4 of them.
      expect(Math.abs(row.accuracy - exact.accuracy), `accuracy c=${row.c} N=${row.n}`).toBeLessThan(0.012);
      expect(Math.abs(row.falseCorrect - exact.falseCorrect), `falseCorrect c=${row.c} N=${row.n}`).toBeLessThan(0.03);
      expect(Math.abs(row.falseWrong - exact.falseWrong), `falseWrong c=${row.c} N=${row.n}`).toBeLessThan(0.03);
    }
  });

  it('is reproducible by seed and changes with it', () => {
    expect(simulateMcLabels({ seed: 0, solutions: 200 })).toEqual(simulateMcLabels({ seed: 0, solutions: 200 }));
    expect(simulateMcLabels({ seed: 1, solutions: 200 })).not.toEqual(simulateMcLabels({ seed: 0, solutions: 200 }));
  });

  it('closed form: one rollout mislabels a wrong step with probability ε, and more rollouts only raise it', () => {
    expect(mcLabelsClosedForm(0.9, 1).falseCorrect).toBeCloseTo(0.1, 12);
    expect(mcLabelsClosedForm(0.9, 2).falseCorrect).toBeCloseTo(1 - 0.9 ** 2, 12);
    // The last step of a clean solution always completes: with c = 1 no step is ever labelled wrong.
    expect(mcLabelsClosedForm(1, 1).falseWrong).toBe(0);
    // Hand-computed for K = 2, c = 0.5, N = 1: clean masses 0.5 (step 1) and 0.25 (step 2);
    // step 1 fails its rollout with probability 1 - 0.5 = 0.5, step 2 never: falseWrong = 0.25 / 0.75.
    expect(mcLabelsClosedForm(0.5, 1, { steps: 2 }).falseWrong).toBeCloseTo(1 / 3, 12);
  });
});
