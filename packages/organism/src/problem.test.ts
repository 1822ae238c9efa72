import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildProblem } from './build-problem.js';
import { resolveOrganismOptions } from './options.js';
import { answerOf, parseProblem } from './problem.js';
import { createRandom, deriveSeed } from './random.js';

describe('parseProblem', () => {
  it('reads back the structure every generated problem was written from', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 2 ** 31 - 1 }), fc.integer({ min: 1, max: 9 }), fc.constantFrom(10, 100, 1000), (seed, count, maxNumber) => {
        const options = resolveOrganismOptions({ maxNumber, distractorProbability: 0.5 });
        const problem = buildProblem(createRandom(seed), count, options);
        expect(parseProblem(problem.text)).toEqual(problem.structure);
        expect(answerOf(problem.structure)).toBeLessThanOrEqual(maxNumber);
      }),
      { numRuns: 300, seed: 5 },
    );
  });
});

describe('createRandom', () => {
  it('is a pure function of its seed, and derived streams differ by path', () => {
    const draw = (seed: number) => Array.from({ length: 5 }, createRandom(seed).next);
    expect(draw(42)).toEqual(draw(42));
    expect(draw(42)).not.toEqual(draw(43));
    expect(deriveSeed(0, 1, 2)).toBe(deriveSeed(0, 1, 2));
    expect(new Set([deriveSeed(0, 1, 2), deriveSeed(0, 2, 1), deriveSeed(0, 1), deriveSeed(1, 1, 2)]).size).toBe(4);
  });

  it('draws integers in range, roughly uniformly', () => {
    const random = createRandom(7);
    const counts = new Array(6).fill(0);
    for (let draw = 0; draw < 60_000; draw++) counts[random.integer(1, 6) - 1]++;
    // 10,000 expected per face; the binomial standard deviation is about 91.
    for (const count of counts) expect(Math.abs(count - 10_000)).toBeLessThan(500);
  });
});
