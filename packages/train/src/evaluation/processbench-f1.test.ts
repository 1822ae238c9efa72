import { describe, expect, it } from 'vitest';
import { predictFirstError, processBenchF1 } from './processbench-f1.js';

describe('ProcessBench F1', () => {
  it('predicts the first step below the threshold, -1 when none is', () => {
    expect(predictFirstError([0.9, 0.4, 0.2], 0.5)).toBe(1);
    expect(predictFirstError([0.9, 0.6], 0.5)).toBe(-1);
    expect(predictFirstError([0.5], 0.5)).toBe(-1);
  });

  it('is the harmonic mean of the accuracies on erroneous and on correct items', () => {
    const items = [
      { label: 1, scores: [0.9, 0.1, 0.8] }, // hit
      { label: 0, scores: [0.9, 0.1] }, // predicted 1: miss
      { label: 2, scores: [0.9, 0.8, 0.7] }, // predicted -1: miss
      { label: -1, scores: [0.9, 0.9] }, // hit
      { label: -1, scores: [0.3] }, // miss
    ];
    const metrics = processBenchF1(items, 0.5);
    expect(metrics.errorAccuracy).toBeCloseTo(1 / 3, 12);
    expect(metrics.correctAccuracy).toBeCloseTo(1 / 2, 12);
    expect(metrics.f1).toBeCloseTo((2 * (1 / 3) * (1 / 2)) / (1 / 3 + 1 / 2), 12);
    expect(metrics).toMatchObject({ erroneous: 3, correct: 2, threshold: 0.5 });
  });

  it('is NaN without items of one kind, and 0 when both accuracies are 0', () => {
    expect(processBenchF1([{ label: 0, scores: [0.1] }], 0.5).f1).toBeNaN();
    expect(
      processBenchF1(
        [
          { label: 0, scores: [0.9] },
          { label: -1, scores: [0.1] },
        ],
        0.5,
      ).f1,
    ).toBe(0);
  });
});
