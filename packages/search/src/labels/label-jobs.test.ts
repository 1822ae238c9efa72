import { InvalidInputError } from '@reward-lens/core';
import { describe, expect, it } from 'vitest';
import { labelJobs, recordSeed, type FailedLabelJob, type LabelJob } from './label-jobs.js';

async function* jobsOf(jobs: readonly LabelJob[]): AsyncGenerator<LabelJob> {
  yield* jobs;
}

const input = (problem: string) => ({ problem, steps: ['a'], reference: '1' });

describe('labelJobs', () => {
  it('writes each record in input order with its own seed, and reports bad records and InvalidInputErrors as errors', async () => {
    const written: string[] = [];
    const failed: FailedLabelJob[] = [];
    const totals = await labelJobs(
      {
        jobs: jobsOf([
          { key: 'line 1', text: 'one', input: input('one') },
          { key: 'line 2', text: 'bad', error: { code: 'INVALID_INPUT', message: 'not JSON' } },
          { key: 'line 3', text: 'stuck', input: input('stuck') },
          { key: 'line 4', text: 'four', input: input('four') },
        ]),
        settings: { rollouts: 2 },
        label: async (record, context) => {
          if (record.problem === 'stuck') throw new InvalidInputError('the policy cannot continue');
          expect(context.store).toBeUndefined();
          return `${record.problem} ${context.seed}\n`;
        },
        onError: (job) => void failed.push(job),
      },
      { write: async (_key, _fingerprint, lines) => void written.push(lines) },
    );
    expect(written).toEqual([`one ${recordSeed({ rollouts: 2 }, 'line 1', 'one')}\n`, `four ${recordSeed({ rollouts: 2 }, 'line 4', 'four')}\n`]);
    expect(failed.map((job) => [job.key, job.error.message])).toEqual([
      ['line 2', 'not JSON'],
      ['line 3', 'the policy cannot continue'],
    ]);
    expect(totals).toEqual({ records: 4, resumed: 0, labelled: 2, errors: 2, reusedPrefixValues: 0 });
  });

  it('lets other errors propagate', async () => {
    const run = labelJobs(
      { jobs: jobsOf([{ key: 'line 1', text: 'one', input: input('one') }]), settings: {}, label: () => Promise.reject(new Error('a bug')) },
      { write: async () => {} },
    );
    await expect(run).rejects.toThrow('a bug');
  });
});
