import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jsonLines, runMain } from '../../test/support/run-main.js';

const root = await mkdtemp(join(tmpdir(), 'reward-lens-cli-label-'));
afterAll(() => rm(root, { recursive: true, force: true }));

const problem = 'Compute 2 + 3.';
// From the problem alone, one rollout in two goes right; after a wrong first step, none does.
const script = {
  '': ['2 + 3 = 5.', '2 + 3 = 6.'],
  '2 + 3 = 5.': ['The answer is \\boxed{5}.'],
  '2 + 3 = 6.': ['The answer is \\boxed{6}.'],
};
const records = [
  { problem, steps: ['2 + 3 = 6.', 'The answer is \\boxed{6}.'], answer: 5 },
  { problem, solution: '2 + 3 = 5.\nThe answer is \\boxed{5}.', reference: '5' },
  { problem, steps: ['x'] },
];

let scriptFile: string;
let input: string;
beforeAll(async () => {
  scriptFile = join(root, 'script.json');
  input = join(root, 'solutions.jsonl');
  await writeFile(scriptFile, JSON.stringify(script));
  await writeFile(input, records.map((record) => JSON.stringify(record)).join('\n'));
});

describe('reward-lens label', () => {
  it('writes TRL rows with Monte-Carlo labels (hard, soft, values); a bad record is reported and the run goes on', async () => {
    const hard = await runMain(['label', '--completer', scriptFile, '--file', input, '--rollouts', '2', '--details']);
    expect(hard.exitCode).toBe(1);
    expect(jsonLines(hard.stdout)).toEqual([
      {
        prompt: problem,
        completions: records[0]!.steps,
        labels: [false, false],
        values: [0.5, 0, 0],
        firstError: 0,
        completionsSpent: 4,
        fullSweepCompletions: 4,
      },
      {
        prompt: problem,
        completions: ['2 + 3 = 5.', 'The answer is \\boxed{5}.'],
        labels: [true, true],
        values: [0.5, 1, 1],
        firstError: null,
        completionsSpent: 4,
        fullSweepCompletions: 4,
      },
    ]);
    expect(hard.stderr).toMatch(/line 3: INVALID_INPUT: "answer" \(or "reference"\) must be a string or a number/);
    expect(hard.stderr).toMatch(/labelled 2 of 3 records, 1 error; 8 completions rolled out \(a full sweep: 8\)/);
    const soft = await runMain(['label', '--completer', scriptFile, '--file', input, '--rollouts', '2', '--labels', 'soft', '-q']);
    expect(jsonLines(soft.stdout).map((row) => row.labels)).toEqual([
      [0, 0],
      [1, 1],
    ]);
  });

  it('binary search labels up to the first error', async () => {
    const { stdout } = await runMain(['label', '--completer', scriptFile, '--file', input, '--rollouts', '2', '--mode', 'binary', '-q']);
    expect(jsonLines(stdout).map((row) => row.labels)).toEqual([[false], [true, true]]);
  });

  it('resumes with --out: a second run finds every record done and rolls nothing out', async () => {
    const out = join(root, 'labels.jsonl');
    const first = await runMain(['label', '--completer', scriptFile, '--file', input, '--rollouts', '2', '--out', out]);
    expect(first.stdout).toBe('');
    const written = await readFile(out, 'utf8');
    expect(jsonLines(written)).toHaveLength(2);
    const again = await runMain(['label', '--completer', scriptFile, '--file', input, '--rollouts', '2', '--out', out]);
    expect(again.stderr).toMatch(/labelled 0 of 3 records \(2 done by an earlier run, 0 prefix values reused\), 1 error; 0 completions rolled out/);
    expect(await readFile(out, 'utf8')).toBe(written);
    const other = await runMain(['label', '--completer', scriptFile, '--file', input, '--rollouts', '3', '--out', out]);
    expect(other.exitCode).toBe(1);
    expect(other.stderr).toMatch(/written by a run with other settings/);
  });

  it('refuses to write over an existing file that is not a resumable label run, unless --force', async () => {
    const out = join(root, 'precious.jsonl');
    await writeFile(out, 'my own data\n');
    const refused = await runMain(['label', '--completer', scriptFile, '--file', input, '--rollouts', '2', '--out', out]);
    expect(refused.exitCode).toBe(1);
    expect(refused.stderr).toContain(`${out} exists and is not a resumable label run (no ${out}.state.jsonl beside it); pass --force to replace it`);
    expect(await readFile(out, 'utf8')).toBe('my own data\n');
    const forced = await runMain(['label', '--completer', scriptFile, '--file', input, '--rollouts', '2', '--out', out, '--force']);
    expect(forced.stderr).toMatch(/labelled 2 of 3 records/);
    expect(jsonLines(await readFile(out, 'utf8'))).toHaveLength(2);
  });

  it('filters by consensus with a PRM judge', async () => {
    const { stdout, stderr } = await runMain([
      'label',
      '--completer',
      scriptFile,
      '--file',
      input,
      '--rollouts',
      '2',
      '--judge',
      'tiny',
      '--judge-threshold=-1000',
      '--details',
    ]);
    // A judge that passes every step agrees with the second solution only (no error either way).
    expect(jsonLines(stdout).map((row) => [row.labels, row.judgeFirstError, row.agree])).toEqual([[[true, true], null, [true, true]]]);
    expect(stderr).toMatch(/kept 1, dropped 1/);
  });

  it('refuses soft labels with binary search, and consensus flags without a judge', async () => {
    expect((await runMain(['label', '--completer', scriptFile, '--file', input, '--mode', 'binary', '--labels', 'soft'])).stderr).toMatch(
      /--labels soft needs --mode sweep/,
    );
    expect((await runMain(['label', '--completer', scriptFile, '--file', input, '--consensus', 'prefix'])).exitCode).toBe(2);
  });
});
