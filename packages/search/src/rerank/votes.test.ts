import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ScoredCandidate } from './scored-candidate.js';
import { bestOfN, majorityVote, weightedVote } from './votes.js';

function candidate(index: number, normalized: string | null, score: number | null): ScoredCandidate {
  return { index, stepScores: score === null ? [] : [score], score, answer: normalized, answerMethod: normalized === null ? null : 'boxed', normalized };
}

const pool = fc.array(fc.tuple(fc.constantFrom('1', '2', '3', '1/2', null), fc.oneof(fc.double({ min: 0, max: 1, noNaN: true }), fc.constant(null))), {
  minLength: 1,
  maxLength: 24,
});

describe('votes', () => {
  it('sums scores per answer; the largest sum wins even against more candidates', () => {
    const candidates = [candidate(0, '7', 0.9), candidate(1, '8', 0.3), candidate(2, '8', 0.3), candidate(3, '7', 0.2), candidate(4, '8', 0.35)];
    const weighted = weightedVote(candidates);
    expect(weighted.answer).toBe('7');
    expect(weighted.votes.map((vote) => [vote.normalized, Number(vote.total.toFixed(6)), vote.count])).toEqual([
      ['7', 1.1, 2],
      ['8', 0.95, 3],
    ]);
    expect(weighted.pick).toBe(0);
    expect(majorityVote(candidates)).toMatchObject({ answer: '8', pick: 1 });
    expect(bestOfN(candidates)).toBe(0);
  });

  it('breaks ties by count, then best score, then the smaller key', () => {
    expect(weightedVote([candidate(0, 'b', 0.5), candidate(1, 'a', 0.25), candidate(2, 'a', 0.25)]).answer).toBe('a');
    expect(weightedVote([candidate(0, 'b', 0.5), candidate(1, 'a', 0.4), candidate(2, 'b', 0.4), candidate(3, 'a', 0.5)]).pick).toBe(3);
    expect(weightedVote([candidate(0, 'b', 0.5), candidate(1, 'a', 0.5)]).answer).toBe('a');
    expect(majorityVote([candidate(0, 'b', 0.9), candidate(1, 'a', 0.1)]).answer).toBe('a');
  });

  it('leaves out candidates without an answer or a score; none at all gives no pick', () => {
    expect(weightedVote([candidate(0, null, 0.9), candidate(1, '3', null)])).toEqual({ pick: null, answer: null, votes: [] });
    expect(majorityVote([candidate(0, null, 0.9), candidate(1, '3', null)]).answer).toBe('3');
    expect(bestOfN([candidate(0, '3', null)])).toBeNull();
  });

  it('does not depend on the order of the candidates (property)', () => {
    fc.assert(
      fc.property(pool, fc.infiniteStream(fc.nat()), (entries, randomness) => {
        const candidates = entries.map(([answer, score], index) => candidate(index, answer, score));
        const shuffled = [...candidates];
        const draws = randomness[Symbol.iterator]();
        for (let index = shuffled.length - 1; index > 0; index--) {
          const other = draws.next().value! % (index + 1);
          [shuffled[index], shuffled[other]] = [shuffled[other]!, shuffled[index]!];
        }
        expect(weightedVote(shuffled)).toEqual(weightedVote(candidates));
        expect(majorityVote(shuffled)).toEqual(majorityVote(candidates));
        expect(bestOfN(shuffled)).toBe(bestOfN(candidates));
      }),
      { numRuns: 300 },
    );
  });

  it('equals the majority vote when every candidate has the same score, and totals are the sums (property)', () => {
    fc.assert(
      fc.property(pool, fc.double({ min: 0.01, max: 1, noNaN: true }), (entries, weight) => {
        const candidates = entries.map(([answer], index) => candidate(index, answer, weight));
        const weighted = weightedVote(candidates);
        expect(weighted.answer).toBe(majorityVote(candidates).answer);
        for (const vote of weighted.votes) expect(vote.total).toBeCloseTo(vote.count * weight, 9);
        expect(weighted.votes.reduce((sum, vote) => sum + vote.count, 0)).toBe(candidates.filter((item) => item.normalized !== null).length);
      }),
      { numRuns: 300 },
    );
  });
});
