import { describe, expect, it } from 'vitest';
import { labelledStepsOf } from './labelled-step.js';

describe('labelledStepsOf', () => {
  it('labels the steps before the first error 1 and the first error 0, and leaves the steps after it out', () => {
    const items = [
      { label: -1, stepScores: Float32Array.of(0.9, 0.8, 0.7) },
      { label: 1, stepScores: Float32Array.of(0.75, 0.25, 0.5, 0.125) },
      { label: 0, stepScores: Float32Array.of(0.0625, 0.5) },
    ];
    expect(labelledStepsOf(items)).toEqual([
      { score: Math.fround(0.9), label: 1 },
      { score: Math.fround(0.8), label: 1 },
      { score: Math.fround(0.7), label: 1 },
      { score: 0.75, label: 1 },
      { score: 0.25, label: 0 },
      { score: 0.0625, label: 0 },
    ]);
  });

  it('leaves out steps without a score (cut by truncation), whatever their label', () => {
    const items = [
      { label: 2, stepScores: [Number.NaN, 0.5, Number.NaN, 0.25] },
      { label: -1, stepScores: [Number.NaN, Number.NaN] },
    ];
    expect(labelledStepsOf(items)).toEqual([{ score: 0.5, label: 1 }]);
  });
});
