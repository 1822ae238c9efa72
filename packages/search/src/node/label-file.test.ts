import { RewardLensError } from '@reward-lens/core';
import fc from 'fast-check';
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { fixtureRecords, runFixtureLabelling } from '../../test/support/label-file-child.js';

const root = await mkdtemp(join(tmpdir(), 'reward-lens-label-file-'));
afterAll(() => rm(root, { recursive: true, force: true }));

const fixture = fileURLToPath(new URL('../../test/support/label-file-child.ts', import.meta.url));
const packageRoot = fileURLToPath(new URL('../..', import.meta.url));

function journal(text: string) {
  return text
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as { type: string; key?: string; k?: number });
}

async function waitFor(condition: () => Promise<boolean>, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error('timed out waiting for the child process');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('resumable labelling', () => {
  it('a run killed mid-way restarts where it stopped: the same output as one run, no prefix value computed twice', async () => {
    const reference = join(root, 'reference.jsonl');
    const whole = await runFixtureLabelling(reference, 0);
    expect(whole).toMatchObject({ records: fixtureRecords, labelled: fixtureRecords, resumed: 0 });
    const referenceJournal = journal(await readFile(`${reference}.state.jsonl`, 'utf8'));

    const output = join(root, 'killed.jsonl');
    const child = spawn(process.execPath, ['--import', 'tsx', '--conditions=@reward-lens/source', fixture, output, '15'], {
      cwd: packageRoot,
      stdio: 'ignore',
    });
    const exited = new Promise<NodeJS.Signals | null>((resolve) => child.on('exit', (_, signal) => resolve(signal)));
    // Kill it once a few records are done and the next one is part-way (some of its prefix values journalled).
    await waitFor(async () => {
      const entries = journal(await readFile(`${output}.state.jsonl`, 'utf8').catch(() => ''));
      const done = entries.filter((entry) => entry.type === 'done').length;
      const lastDone = entries.map((entry) => entry.type).lastIndexOf('done');
      return done >= 3 && entries.slice(lastDone + 1).some((entry) => entry.type === 'prefix');
    }, 60_000);
    child.kill('SIGKILL');
    expect(await exited).toBe('SIGKILL');
    const killedJournal = journal(await readFile(`${output}.state.jsonl`, 'utf8'));
    const finishedBeforeKill = killedJournal.filter((entry) => entry.type === 'done').length;
    expect(finishedBeforeKill).toBeLessThan(fixtureRecords);
    // Simulate the worst moment: a half-written output line after the last finished record.
    await writeFile(output, `${await readFile(output, 'utf8')}{"prompt": "half a li`);

    const resumed = await runFixtureLabelling(output, 0);
    expect(resumed.resumed).toBe(finishedBeforeKill);
    expect(resumed.labelled).toBe(fixtureRecords - finishedBeforeKill);
    expect(resumed.reusedPrefixValues).toBeGreaterThan(0);
    expect(await readFile(output, 'utf8')).toBe(await readFile(reference, 'utf8'));

    const entries = journal(await readFile(`${output}.state.jsonl`, 'utf8'));
    const prefixKeys = entries.filter((entry) => entry.type === 'prefix').map((entry) => `${entry.key}#${entry.k}`);
    expect(new Set(prefixKeys).size).toBe(prefixKeys.length);
    expect(prefixKeys.length).toBe(referenceJournal.filter((entry) => entry.type === 'prefix').length);
  });

  it('refuses to resume with other settings, naming them', async () => {
    const output = join(root, 'settings.jsonl');
    await runFixtureLabelling(output, 0);
    const { labelFile } = await import('./label-file.js');
    await expect(labelFile({ jobs: (async function* () {})(), outputPath: output, settings: { rollouts: 99 }, label: async () => '' })).rejects.toThrow(
      /written by a run with other settings/,
    );
  });

  it('reports a record its labeller refuses (an InvalidInputError) and goes on; other errors stop the run', async () => {
    const { InvalidInputError } = await import('@reward-lens/core');
    const { labelFile } = await import('./label-file.js');
    const output = join(root, 'refused.jsonl');
    const jobs = async function* () {
      for (const key of ['line 1', 'line 2', 'line 3']) yield { key, text: key, input: { problem: key, steps: ['a'], reference: '1' } };
    };
    const reported: string[] = [];
    const totals = await labelFile({
      jobs: jobs(),
      outputPath: output,
      settings: {},
      label: async (input) => {
        if (input.problem === 'line 2') throw new InvalidInputError('the policy cannot continue this prefix', { location: 'after step 1' });
        return `${JSON.stringify({ prompt: input.problem })}\n`;
      },
      onError: (job) => {
        reported.push(`${job.key}: ${job.error.code}: ${job.error.message}`);
      },
    });
    expect(totals).toMatchObject({ records: 3, labelled: 2, errors: 1 });
    expect(reported).toEqual(['line 2: INVALID_INPUT: after step 1: the policy cannot continue this prefix']);
    expect(jsonLinesOf(await readFile(output, 'utf8'))).toEqual([{ prompt: 'line 1' }, { prompt: 'line 3' }]);
    const broken = labelFile({
      jobs: jobs(),
      outputPath: join(root, 'broken.jsonl'),
      settings: {},
      label: async () => {
        throw new Error('the server went away');
      },
    });
    await expect(broken).rejects.toThrow(/the server went away/);
  });

  it('fuzz: a state file with any line replaced resumes, or is refused with a typed error naming the line; never an internal error', async () => {
    const reference = join(root, 'fuzz-reference.jsonl');
    await runFixtureLabelling(reference, 0);
    const [stateText, outputText] = [await readFile(`${reference}.state.jsonl`, 'utf8'), await readFile(reference, 'utf8')];
    const lines = stateText.split('\n').filter((line) => line !== '');
    const replacement = fc.oneof(
      fc.jsonValue({ maxDepth: 2 }).map((value) => JSON.stringify(value) ?? 'null'),
      fc.constantFrom('null', '[]', '{"type":"done","key":1}', '{"type":"prefix","key":"r","fingerprint":"f","k":-1}', '{"type":"header","version":2}'),
      fc.string({ maxLength: 20 }),
    );
    let run = 0;
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 0, max: lines.length - 1 }), replacement, async (index, line) => {
        const output = join(root, `fuzz-${run++}.jsonl`);
        const edited = [...lines];
        edited[index] = line;
        await writeFile(`${output}.state.jsonl`, `${edited.join('\n')}\n`);
        await writeFile(output, outputText);
        const outcome = await runFixtureLabelling(output, 0).catch((caught: unknown) => caught);
        if (outcome instanceof Error) expect(RewardLensError.isInstance(outcome), `line ${index} = ${line}: ${outcome.stack}`).toBe(true);
      }),
      { numRuns: 30, seed: 20261202 },
    );
  }, 120_000);
});

function jsonLinesOf(text: string): unknown[] {
  return text
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line));
}
