import { applyStepCalibration } from '@reward-lens/core';
import { describe, expect, it } from 'vitest';
import { createSeededRandom } from '../random/seeded-random.js';
import { fitStepCalibration } from './fit-calibration.js';
import { fitIsotonic } from './fit-isotonic.js';
import { fitPlatt } from './fit-platt.js';
import type { LabelledStep } from './labelled-step.js';
import { reliability } from './reliability.js';

const steps = (pairs: [number, 0 | 1][]): LabelledStep[] => pairs.map(([score, label]) => ({ score, label }));

describe('isotonic regression (PAV)', () => {
  it.each<[string, [number, 0 | 1][], { x: number[]; y: number[] }]>([
    // Labels in score order 1,0,1,0,0,1,1: the first five pool to 2/5, the last two stay 1.
    [
      'pools adjacent violators: a hand-worked case',
      [
        [1, 1],
        [2, 0],
        [3, 1],
        [4, 0],
        [5, 0],
        [6, 1],
        [7, 1],
      ],
      { x: [1, 5, 6, 7], y: [0.4, 0.4, 1, 1] },
    ],
    [
      'pools equal scores first, as scikit-learn does',
      [
        [0.5, 1],
        [0.5, 0],
        [0.9, 1],
      ],
      { x: [0.5, 0.9], y: [0.5, 1] },
    ],
  ])('%s', (_title, scoresAndLabels, expected) => {
    expect(fitIsotonic(steps(scoresAndLabels))).toEqual(expected);
  });

  it('is non-decreasing and no worse in squared error than any constant (random data)', () => {
    const random = createSeededRandom(4);
    const data = Array.from({ length: 300 }, () => {
      const score = random.next();
      return { score, label: (random.next() < score ? 1 : 0) as 0 | 1 };
    });
    const fit = fitIsotonic(data);
    for (let index = 1; index < fit.y.length; index++) expect(fit.y[index]!).toBeGreaterThanOrEqual(fit.y[index - 1]!);
    const mean = data.reduce((total, step) => total + step.label, 0) / data.length;
    const error = (predict: (score: number) => number) => data.reduce((total, step) => total + (predict(step.score) - step.label) ** 2, 0);
    expect(error((score) => applyStepCalibration({ method: 'isotonic', ...fit }, score))).toBeLessThanOrEqual(error(() => mean) + 1e-9);
  });
});

describe('Platt scaling', () => {
  it('recovers a known logistic relation from many samples', () => {
    const random = createSeededRandom(7);
    const data = Array.from({ length: 20_000 }, () => {
      const score = 4 * random.next() - 2;
      return { score, label: (random.next() < 1 / (1 + Math.exp(-(2 * score - 0.5))) ? 1 : 0) as 0 | 1 };
    });
    const fit = fitPlatt(data);
    expect(fit.slope).toBeCloseTo(2, 0.9);
    expect(Math.abs(fit.slope - 2)).toBeLessThan(0.12);
    expect(Math.abs(fit.intercept + 0.5)).toBeLessThan(0.08);
  });

  it('sits at a stationary point of the smoothed-target likelihood', () => {
    const data = steps([
      [0.1, 0],
      [0.3, 0],
      [0.35, 1],
      [0.6, 0],
      [0.7, 1],
      [0.9, 1],
      [0.95, 1],
    ]);
    const { slope, intercept } = fitPlatt(data);
    const high = (4 + 1) / (4 + 2);
    const low = 1 / (3 + 2);
    let gradientSlope = 0;
    let gradientIntercept = 0;
    for (const step of data) {
      const residual = 1 / (1 + Math.exp(-(slope * step.score + intercept))) - (step.label === 1 ? high : low);
      gradientSlope += residual * step.score;
      gradientIntercept += residual;
    }
    expect(Math.abs(gradientSlope)).toBeLessThan(1e-8);
    expect(Math.abs(gradientIntercept)).toBeLessThan(1e-8);
  });

  it('refuses labels of one kind only', () => {
    expect(() =>
      fitPlatt(
        steps([
          [0.2, 1],
          [0.4, 1],
        ]),
      ),
    ).toThrow(/both kinds/);
  });
});

describe('expected calibration error', () => {
  it('matches a hand-checked case with 10 equal-width bins', () => {
    // Bin [0.2, 0.3): confidence 0.25, accuracy 1/2 → |0.25| weighted 2/4; bin [0.9, 1]: confidence 0.95, accuracy 1 → 0.05 weighted 2/4.
    const result = reliability([0.2, 0.3 - 1e-9, 0.9, 1], [0, 1, 1, 1]);
    expect(result.ece).toBeCloseTo(0.5 * Math.abs(0.5 - (0.2 + 0.3 - 1e-9) / 2) + 0.5 * 0.05, 9);
    expect(result.bins.filter((bin) => bin.count > 0).map((bin) => bin.from)).toEqual([0.2, 0.9]);
    expect(result.binning).toBe('10 equal-width bins of [0, 1], weighted by count');
  });

  it('drops after isotonic calibration of miscalibrated scores, and the result is plain data', () => {
    const random = createSeededRandom(11);
    const data = Array.from({ length: 5000 }, () => {
      const score = random.next();
      // True probability score², so raw scores are overconfident.
      return { score, label: (random.next() < score * score ? 1 : 0) as 0 | 1 };
    });
    const calibration = fitStepCalibration(data, { method: 'isotonic', set: { name: 'synthetic', domain: 'synthetic scores', items: 1000 } });
    expect(calibration.diagnostics!.eceBefore).toBeGreaterThan(0.1);
    expect(calibration.diagnostics!.eceAfter).toBeLessThan(0.03);
    expect(JSON.parse(JSON.stringify(calibration))).toEqual(calibration);
    expect(calibration.set).toEqual({ name: 'synthetic', domain: 'synthetic scores', labelledSteps: 5000, items: 1000 });
  });
});
