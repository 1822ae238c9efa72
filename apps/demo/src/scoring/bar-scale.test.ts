import { describe, expect, it } from 'vitest';
import { barScale, curveScale, formatScore } from './bar-scale.js';

describe('bar and curve scales', () => {
  it('put probabilities on [0, 1] and raw scores on their own range with 0 in it', () => {
    const probability = barScale('PROBABILITY', [0.2, 0.9]);
    expect([probability.fraction(0.25), probability.fraction(1.5), probability.fraction(Number.NaN)]).toEqual([0.25, 1, 0]);
    const raw = barScale('INVARIANT', [-0.4, -0.1]);
    expect([raw.low, raw.high]).toEqual([-0.4, 0]);
    expect(raw.fraction(-0.4)).toBe(0);
    expect(raw.fraction(-0.1)).toBeCloseTo(0.75, 12);
    expect(raw.description).toMatch(/raw scores \(not probabilities\)/);
    expect(barScale('INVARIANT', [0, 0]).fraction(0)).toBe(0);
  });

  it('spread a raw curve over its own range, so small differences show', () => {
    const curve = curveScale('INVARIANT', [0.91, 0.93]);
    expect(curve.fraction(0.91)).toBeCloseTo(1 / 12, 9);
    expect(curve.fraction(0.93)).toBeCloseTo(11 / 12, 9);
    expect(curveScale('INVARIANT', [0.5]).fraction(0.5)).toBeCloseTo(0.5, 12);
  });

  it('shows four decimals, or an exponent for very small and large values', () => {
    expect([formatScore(0.123456), formatScore(-0.5), formatScore(0), formatScore(1.5e-6), formatScore(Number.NaN)]).toEqual([
      '0.1235',
      '-0.5000',
      '0',
      '1.500e-6',
      'no score',
    ]);
  });
});
