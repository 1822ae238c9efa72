import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { InvalidInputError } from '@reward-lens/spec';
import { aggregate, aggregateScored, aggregatorNames, registerAggregator } from './index.js';

describe('aggregators', () => {
  const worked = [0.95, 0.9, 0.3, 0.85];

  it('holds the worked example: min 0.30, prod 0.218, mean 0.75, last 0.85', () => {
    expect(aggregate(worked, 'min')).toBe(0.3);
    expect(aggregate(worked, 'prod').toFixed(3)).toBe('0.218');
    expect(aggregate(worked, 'mean')).toBeCloseTo(0.75, 12);
    expect(aggregate(worked, 'last')).toBe(0.85);
  });

  it('accepts typed arrays', () => {
    expect(aggregate(Float32Array.from(worked), 'last')).toBeCloseTo(0.85, 6);
  });

  it('registers custom aggregators and removes them again', () => {
    const remove = registerAggregator('geometric-mean', (scores) => aggregate(scores, 'prod') ** (1 / scores.length));
    expect(aggregatorNames()).toContain('geometric-mean');
    expect(aggregate([0.25, 1], 'geometric-mean')).toBeCloseTo(0.5, 12);
    remove();
    expect(() => aggregate([0.25, 1], 'geometric-mean')).toThrow(/unknown aggregator "geometric-mean"/);
  });

  it('refuses to replace a built-in, empty input and non-finite scores with typed errors', () => {
    expect(() => registerAggregator('min', () => 0)).toThrow(InvalidInputError);
    expect(() => aggregate([], 'min')).toThrow(InvalidInputError);
    expect(() => aggregate([0.5, Number.NaN], 'mean')).toThrow(/step score 1 is not a finite number/);
  });

  it('keeps min <= mean <= max and last in range for any scores', () => {
    fc.assert(
      fc.property(fc.array(fc.double({ min: -10, max: 10, noNaN: true }), { minLength: 1, maxLength: 40 }), (scores) => {
        const lowest = aggregate(scores, 'min');
        const mean = aggregate(scores, 'mean');
        expect(lowest).toBeLessThanOrEqual(mean + 1e-9);
        expect(mean).toBeLessThanOrEqual(Math.max(...scores) + 1e-9);
        expect(aggregate(scores, 'last')).toBe(scores[scores.length - 1]);
      }),
      { numRuns: 500 },
    );
  });

  it('gives prod <= min for probabilities', () => {
    fc.assert(
      fc.property(fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { minLength: 1, maxLength: 40 }), (scores) => {
        expect(aggregate(scores, 'prod')).toBeLessThanOrEqual(aggregate(scores, 'min') + 1e-12);
      }),
      { numRuns: 500 },
    );
  });
});

describe('aggregateScored', () => {
  it('aggregates the steps with a score and names the others, 1-based', () => {
    expect(aggregateScored([Number.NaN, Number.NaN, 0.9, 0.3], 'min')).toEqual({ value: 0.3, scoredSteps: 2, unscoredSteps: [1, 2] });
    expect(aggregateScored([0.5, 0.25], 'prod')).toEqual({ value: 0.125, scoredSteps: 2, unscoredSteps: [] });
    expect(aggregateScored([Number.NaN], 'mean')).toEqual({ value: Number.NaN, scoredSteps: 0, unscoredSteps: [1] });
  });
});
