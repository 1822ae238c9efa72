import { describe, expect, it } from 'vitest';
import { simulateBestOfN } from './best-of-n-toy.js';

describe('simulateBestOfN', () => {
  const result = simulateBestOfN({ seed: 0 });

  it('picks by min, prod, mean, last and the ORM', () => {
    expect(result.rows.map((row) => row.rule)).toEqual(['min', 'prod', 'mean', 'last', 'orm']);
  });

  it('samples 4 to 16 steps uniformly: the mean is 10 within sampling error', () => {
    // 48,000 candidates, sd of U{4..16} = sqrt((13^2 - 1) / 12) ≈ 3.74: standard error ≈ 0.017.
    expect(Math.abs(result.meanSampledSteps - 10)).toBeLessThan(0.08);
  });

  it('a random pick is right with the closed-form probability', () => {
    // P(clean) = E[0.9^L] over L uniform on 4..16; P(right answer) = P(clean) + 0.15 (1 - P(clean)).
    let clean = 0;
    for (let length = 4; length <= 16; length++) clean += 0.9 ** length / 13;
    expect(Math.abs(result.curves.random.processCorrect - clean)).toBeLessThan(0.01);
    expect(Math.abs(result.curves.random.finalAccuracy - (clean + 0.15 * (1 - clean)))).toBeLessThan(0.01);
    const atOne = result.curves.points.filter((point) => point.n === 1);
    for (const point of atOne) expect(Math.abs(point.finalAccuracy - result.curves.random.finalAccuracy)).toBeLessThan(0.02);
  });

  it('every rule beats a random pick at N = 16, and prod picks shorter solutions than are sampled', () => {
    for (const row of result.rows) expect(row.finalAccuracy).toBeGreaterThan(result.curves.random.finalAccuracy);
    const prod = result.rows.find((row) => row.rule === 'prod')!;
    expect(prod.meanSteps).toBeLessThan(result.meanSampledSteps);
    for (const row of result.rows) expect(row.processCorrect).toBeLessThanOrEqual(row.finalAccuracy);
  });

  it('is reproducible by seed', () => {
    expect(simulateBestOfN({ seed: 3, problems: 50 }).rows).toEqual(simulateBestOfN({ seed: 3, problems: 50 }).rows);
  });
});
