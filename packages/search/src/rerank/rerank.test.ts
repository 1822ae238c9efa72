import '@reward-lens/backend-tiny/register';
import { ProcessRM, aggregate } from '@reward-lens/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rerank } from './rerank.js';

let prm: ProcessRM;
beforeAll(async () => {
  prm = await ProcessRM.fromTiny({ seed: 0 });
});
afterAll(() => prm?.dispose());

const problem = 'Natalia sold 48 clips in April and half as many in May. How many clips did she sell altogether?';
const candidates = [
  'In May she sold 48 / 2 = 24 clips.\nAltogether 48 + 24 = 72 clips.\nThe answer is 72.',
  'In May she sold 48 / 2 = 24 clips.\nAltogether 48 + 24 = 72.\nSo the total is $\\boxed{72}$.',
  'In May she sold 48 * 2 = 96 clips.\nAltogether 48 + 96 = 144 clips.\nThe answer is 144 clips.',
  'She sold 48 clips in April.\nIn May 24.\nThe answer is 72 clips.',
  '',
];

describe('rerank with the seeded tiny PRM', () => {
  it('scores each candidate as prm.stepScores does, extracts and groups answers, and sums the aggregates per answer', async () => {
    const result = await rerank(prm, problem, candidates, { method: 'weighted-vote', aggregate: 'min' });
    const valid = candidates.slice(0, 4);
    const direct = await prm.stepScores(valid.map((solution) => ({ problem, solution })));
    for (const [index, curve] of direct.value.curves.entries()) {
      expect(result.candidates[index]!.stepScores).toEqual(Array.from(curve));
      expect(result.candidates[index]!.score).toBe(aggregate(curve, 'min'));
    }
    expect(result.candidates.map((candidate) => [candidate.answer, candidate.normalized])).toEqual([
      ['72', '72'],
      ['72', '72'],
      ['144 clips', '144'],
      ['72 clips', '72'],
      [null, null],
    ]);
    expect(result.candidates[4]!.error?.code).toBe('INVALID_INPUT');
    const seventyTwo = result.votes.find((vote) => vote.normalized === '72')!;
    expect(seventyTwo.candidates).toEqual([0, 1, 3]);
    const scores = [0, 1, 3].map((index) => result.candidates[index]!.score!).sort((a, b) => a - b);
    expect(seventyTwo.total).toBe(scores.reduce((sum, value) => sum + value, 0));
    const expectedWinner = [...result.votes].sort((a, b) => b.total - a.total)[0]!.normalized;
    expect(result.answer).toBe(expectedWinner);
    expect(result.picks['majority-vote']).toBe(0);
    const best = [0, 1, 2, 3].reduce((top, index) => (result.candidates[index]!.score! > result.candidates[top]!.score! ? index : top), 0);
    expect(result.picks['best-of-n']).toBe(best);
  });

  it('falls back to best-of-n when no candidate states an answer, and says so', async () => {
    const result = await rerank(prm, problem, ['We think hard.\nWe are done.', 'Nothing to say.\nStill nothing.'], { method: 'majority-vote' });
    expect(result.pick).toBe(result.picks['best-of-n']);
    expect(result.notes.some((note) => /fell back to best-of-n/.test(note))).toBe(true);
  });
});
