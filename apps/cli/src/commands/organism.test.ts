import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createOrganism, readProcessBenchRecord, readTrlRecord, verifySolution } from '@reward-lens/organism';
import { afterAll, describe, expect, it } from 'vitest';
import { jsonLines, runMain } from '../../test/support/run-main.js';
import { flags } from '../../test/support/flags.js';

const root = await mkdtemp(join(tmpdir(), 'reward-lens-cli-organism-'));
afterAll(() => rm(root, { recursive: true, force: true }));

describe('organism', () => {
  it('writes ProcessBench JSONL to stdout by default, labels the verifier agrees with', async () => {
    const { exitCode, stdout, stderr } = await runMain(['organism', '--n', '40', '--seed', '3']);
    expect(stderr).toBe('');
    expect(exitCode).toBe(0);
    const records = jsonLines(stdout).map((line, index) => readProcessBenchRecord(line, `line ${index + 1}`));
    expect(records).toHaveLength(40);
    expect(records[0]!.id).toBe('organism-3-0');
    for (const record of records) {
      expect(Object.keys(record).sort()).toEqual(['final_answer_correct', 'generator', 'id', 'label', 'problem', 'steps']);
      const verification = verifySolution(record.problem, record.steps);
      expect(verification.firstErrorStep).toBe(record.label);
      expect(verification.finalAnswerCorrect).toBe(record.final_answer_correct);
    }
    expect(records.some((record) => record.label === -1)).toBe(true);
    expect(records.some((record) => record.label >= 0)).toBe(true);
    // The same items the API gives for the seed.
    expect(records[7]!.steps).toEqual(createOrganism({ seed: 3 }).item(7).steps);
  });

  it('honours the knobs', async () => {
    const { exitCode, stdout } = await runMain([
      'organism',
      ...flags({
        n: '30',
        from: '100',
        steps: '4',
        'max-number': '20',
        ops: '+,*',
        'correct-fraction': '0',
        errors: 'wrong-result,dropped-step',
        distractors: '0',
        format: 'organism',
      }),
    ]);
    expect(exitCode).toBe(0);
    const items = jsonLines(stdout);
    expect(items[0]!.id).toBe('organism-0-100');
    for (const item of items) {
      expect(['wrong-result', 'dropped-step']).toContain(item.errorKind);
      const steps = item.steps as string[];
      expect(steps.length).toBe(item.errorKind === 'dropped-step' ? 3 : 4);
      expect(steps.join(' ')).not.toMatch(/[−÷]/);
      expect(Math.max(...`${item.problem} ${steps.join(' ')}`.match(/\d+/g)!.map(Number))).toBeLessThanOrEqual(20);
      expect(item.verdicts).toHaveLength(steps.length);
    }
  });

  it('--format trl writes prompt, completions and per-step labels; --labels step uses each step’s verdict', async () => {
    const prefix = jsonLines((await runMain(['organism', '--n', '20', '--format', 'trl', '--seed', '1'])).stdout).map((line) => readTrlRecord(line));
    const step = jsonLines((await runMain(['organism', '--n', '20', '--format', 'trl', '--labels', 'step', '--seed', '1'])).stdout).map((line) =>
      readTrlRecord(line),
    );
    const items = createOrganism({ seed: 1 }).items(20);
    items.forEach((item, index) => {
      expect(prefix[index]).toEqual({
        prompt: item.problem,
        completions: item.steps,
        labels: item.steps.map((_, at) => item.firstErrorStep === -1 || at < item.firstErrorStep),
      });
      expect(step[index]!.labels).toEqual(item.verdicts.map((verdict) => verdict === 'correct'));
    });
  });

  it('--pairs writes a clean and a flawed record per pair, the same up to the flawed step', async () => {
    const { exitCode, stdout } = await runMain(['organism', '--n', '10', '--pairs', '--seed', '2']);
    expect(exitCode).toBe(0);
    const records = jsonLines(stdout);
    expect(records).toHaveLength(20);
    for (let index = 0; index < records.length; index += 2) {
      const [clean, flawed] = [records[index]!, records[index + 1]!];
      expect([clean.pair_role, flawed.pair_role]).toEqual(['clean', 'flawed']);
      expect(clean.pair_id).toBe(flawed.pair_id);
      expect(clean.label).toBe(-1);
      expect(flawed.label).toBe(flawed.pair_step);
      const step = flawed.pair_step as number;
      expect((flawed.steps as string[]).slice(0, step)).toEqual((clean.steps as string[]).slice(0, step));
    }
  });

  it('--out writes the file and says so on stderr; the output is deterministic', async () => {
    const out = join(root, 'items.jsonl');
    const { exitCode, stdout, stderr } = await runMain(['organism', '--n', '25', '--seed', '4', '--correct-fraction', '1', '--out', out]);
    expect(exitCode).toBe(0);
    expect(stdout).toBe('');
    expect(stderr).toBe(`reward-lens: wrote 25 items (25 correct, 0 with an error) to ${out}\n`);
    expect(await readFile(out, 'utf8')).toBe((await runMain(['organism', '--n', '25', '--seed', '4', '--correct-fraction', '1'])).stdout);
    const missing = await runMain(['organism', '--n', '2', '--out', join(root, 'no-such-folder', 'items.jsonl')]);
    expect(missing.exitCode).toBe(1);
    expect(missing.stderr).toMatch(/^reward-lens: INVALID_INPUT: .*no-such-folder.*cannot be written \(ENOENT\)/);
  });

  it('bad flags are usage errors with the help; knobs that cannot be met are errors that say why', async () => {
    for (const [args, message] of [
      [['--format', 'csv'], '--format must be one of processbench, trl, organism'],
      [['--steps', '1-4'], '--steps must be <min>-<max> or <n> within 2-10'],
      [['--ops', 'plus'], '--ops: unknown "plus"'],
      [['--errors', 'typo'], '--errors: unknown "typo"'],
      [['--correct-fraction', '2'], '--correct-fraction must be a number from 0 to 1'],
      [['--max-number', '5'], '--max-number must be an integer from 10'],
      [['--labels', 'step'], '--labels applies to --format trl'],
      [['--pairs', '--errors', 'compensating'], '--pairs needs one of'],
    ] as const) {
      const { exitCode, stderr } = await runMain(['organism', ...args]);
      expect(exitCode, args.join(' ')).toBe(2);
      expect(stderr).toContain(message);
      expect(stderr).toContain('Usage:\n  reward-lens organism');
    }
    const impossible = await runMain(['organism', '--ops', '/', '--max-number', '10', '--steps', '8']);
    expect(impossible.exitCode).toBe(1);
    expect(impossible.stderr).toMatch(/INVALID_INPUT: .*7-operation chain with operations ÷ and numbers up to 10/);
  });

  it('is listed, and has help', async () => {
    expect((await runMain(['--help'])).stdout).toMatch(/^ {2}organism +write model-organism problems/m);
    const { exitCode, stdout } = await runMain(['organism', '--help']);
    expect(exitCode).toBe(0);
    expect(stdout).toMatch(/^Usage:\n {2}reward-lens organism/);
  });
});
