import { describe, expect, it } from 'vitest';
import { aggregateScoredSteps } from './aggregate-scored-steps.js';

describe('aggregateScoredSteps', () => {
  it('aggregates every step when all are scored, with no note', () => {
    expect(aggregateScoredSteps([0.5, 0.25, 0.75], 'min')).toEqual({ aggregates: [{ name: 'min', value: 0.25 }], notes: [] });
  });

  it('aggregates over the scored steps when truncation left some without a score, and says which', () => {
    const { aggregates, notes } = aggregateScoredSteps([Number.NaN, Number.NaN, Number.NaN, 0.5, 0.25], 'mean');
    expect(aggregates[0]).toEqual({ name: 'mean', value: 0.375, scoredSteps: 2 });
    expect(notes).toEqual(['mean is over the 2 scored steps of 5; steps 1–3 left out (no score)']);
    expect(aggregateScoredSteps([Number.NaN, 2], 'min').notes).toEqual(['min is over the 1 scored steps of 2; step 1 left out (no score)']);
  });

  it('gives NaN and a note when no step has a score', () => {
    const { aggregates, notes } = aggregateScoredSteps([Number.NaN], 'min');
    expect(aggregates[0]).toEqual({ name: 'min', value: Number.NaN, scoredSteps: 0 });
    expect(notes).toEqual(['min not computed: no step has a score']);
  });

  it('gives several aggregates over the same steps one note', () => {
    const { aggregates, notes } = aggregateScoredSteps([Number.NaN, 0.5, 0.25], ['min', 'last']);
    expect(aggregates).toEqual([
      { name: 'min', value: 0.25, scoredSteps: 2 },
      { name: 'last', value: 0.25, scoredSteps: 2 },
    ]);
    expect(notes).toEqual(['the aggregates (min, last) are over the 2 scored steps of 3; step 1 left out (no score)']);
  });
});
