import '@reward-lens/backend-tiny/register';
import { aggregate, InvalidInputError, ProcessRM } from '@reward-lens/core';
import { describe, expect, it } from 'vitest';
import { compareCandidates, splitCandidates } from './compare-candidates.js';
import { lowestIndex, scoreSolution } from './score-solution.js';

const prm = await ProcessRM.fromTiny({ seed: 0 });
const problem = 'Compute (2+2)*3-5.';

describe('scoring a solution for the page', () => {
  it('gives every step, the lowest, the aggregates and the outcome from its own call, equal to the last step', async () => {
    const scored = await scoreSolution(prm, problem, 'First, 2+2=4.\nThen, 4*3=12.\nFinally, 12-5=7.');
    const curve = Array.from((await prm.stepScores([[problem, 'First, 2+2=4.\nThen, 4*3=12.\nFinally, 12-5=7.']])).value.curves[0]!);
    expect(scored.steps.map((step) => step.score)).toEqual(curve);
    expect(scored.steps.map((step) => step.text)).toEqual(['First, 2+2=4.', 'Then, 4*3=12.', 'Finally, 12-5=7.']);
    expect(scored.lowest).toBe(lowestIndex(curve));
    expect(scored.outcomeGap).toBe(0);
    expect(scored.outcome).toBe(curve[2]);
    for (const name of ['min', 'prod', 'mean', 'last'] as const) expect(scored.aggregates[name]).toBe(aggregate(curve, name));
    expect(scored).toMatchObject({ gauge: 'INVARIANT', trust: 'EXPLORATORY', stepMethod: 'delimiter' });
    expect(scored.notes.join('\n')).toMatch(/backend "tiny" ran the seeded tiny model/);
  });

  it('throws the typed error for input the PRM cannot score', async () => {
    const error = await scoreSolution(prm, problem, '   ').catch((caught: unknown) => caught);
    expect(InvalidInputError.isInstance(error)).toBe(true);
  });

  it('finds the first of equal lowest scores', () => {
    expect(lowestIndex([0.3, 0.1, 0.1, 0.5])).toBe(1);
  });
});

describe('comparing candidates', () => {
  it('splits candidates at lines holding only ---', () => {
    expect(splitCandidates('a\nb\n---\nc\n  ---  \n\n---\n')).toEqual(['a\nb', 'c']);
  });

  it('ranks by score as best-of-N does, its first the best-of-N pick', async () => {
    const candidates = ['2+2=4.\n4*3=12.\nThe answer is 7.', '2+2=5.\nThe answer is 10.', '2+2=4.\n4*3=12.\n12-5=7.\nThe answer is 7.'];
    const { result, bestOfNOrder } = await compareCandidates(prm, problem, candidates, 'min');
    expect([...bestOfNOrder].sort()).toEqual([0, 1, 2]);
    expect(bestOfNOrder[0]).toBe(result.picks['best-of-n']);
    const scores = bestOfNOrder.map((index) => result.candidates[index]!.score!);
    expect(scores).toEqual([...scores].sort((left, right) => right - left));
    expect(result.votes[0]!.normalized).toBe(result.answer);
  });
});
