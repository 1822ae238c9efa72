import { describe, expect, it } from 'vitest';
import { chainProblem, chainSolution, createChainPolicy } from '../testing/chain-policy.js';
import { consensusFilter } from './consensus.js';
import { createRecordLabeller, type LabelTally } from './label-record.js';
import { monteCarloLabels } from './monte-carlo-labels.js';
import { toTrlRecord } from './trl-record.js';

const addends = [3, 5, 7, 2];
const input = { problem: chainProblem(addends), steps: chainSolution(addends, 1, 2), reference: String(addends.reduce((sum, value) => sum + value, 0)) };
const policy = () => createChainPolicy({ stepSuccess: 0.9, rescue: 0.2 });
const tally = (): LabelTally => ({ completions: 0, fullSweepCompletions: 0, kept: 0, dropped: 0 });

describe('createRecordLabeller: one record labelled as reward-lens label does', () => {
  it('gives the TRL row of the Monte-Carlo labels, with the details when asked, and counts what it spent', async () => {
    const counts = tally();
    const row = await createRecordLabeller(policy(), { rollouts: 16, details: true }, counts)(input, { seed: 5 });
    const labels = await monteCarloLabels(policy(), input, { rollouts: 16, seed: 5 });
    expect(row).toEqual({
      ...toTrlRecord(input, labels, 'hard'),
      values: labels.values,
      firstError: labels.firstError,
      completionsSpent: labels.completions,
      fullSweepCompletions: labels.fullSweepCompletions,
    });
    expect(counts).toEqual({ completions: labels.completions, fullSweepCompletions: labels.fullSweepCompletions, kept: 1, dropped: 0 });
  });

  it('drops a record its judge disagrees with (and keeps the agreed prefix with consensus: prefix)', async () => {
    const labels = await monteCarloLabels(policy(), input, { rollouts: 16, seed: 5 });
    const contrary = () => labels.hard.map((label) => !label);
    const counts = tally();
    expect(await createRecordLabeller(policy(), { rollouts: 16, judge: contrary }, counts)(input, { seed: 5 })).toBeNull();
    expect(counts).toMatchObject({ kept: 0, dropped: 1 });
    const agreeing = () => labels.hard;
    const kept = await createRecordLabeller(policy(), { rollouts: 16, judge: agreeing, consensus: 'prefix' }, tally())(input, { seed: 5 });
    const consensus = await consensusFilter(input, labels, agreeing, 'prefix');
    expect(kept).toEqual(toTrlRecord(input, labels, 'hard', consensus.keptSteps));
  });
});
