import { readFile } from 'node:fs/promises';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { defaultModelFigures } from '@reward-lens/model-default';
import { expectScoresClose } from '../../test/support/expect-scores-close.js';
import { jsonLines, natalia, packagePath, runMain } from '../../test/support/run-main.js';

const naturalSteps = natalia.solution.split('\n');

function onlyRecord(stdout: string) {
  const records = jsonLines(stdout);
  expect(records).toHaveLength(1);
  return records[0] as {
    outcome: number;
    stepScores: number[];
    steps: string[];
    aggregate: { name: string; value: number };
    meta: { nSteps: number; stepMethod: string; stepDetection?: string };
    notes: string[];
    backend: string;
    gauge: string;
    trust: string;
    line?: number;
  };
}

describe('score from flags', () => {
  it('prints a table with every step, the outcome and the aggregate', async () => {
    const { exitCode, stdout, stderr } = await runMain(['score', '--problem', natalia.problem, '--solution', natalia.solution]);
    expect(exitCode).toBe(0);
    expect(stderr).toBe('');
    for (const step of naturalSteps) expect(stdout).toContain(step);
    expect(stdout).toMatch(/^ {2}outcome +-?\d+\.\d{4}$/m);
    expect(stdout).toMatch(/^ {2}min +-?\d+\.\d{4}$/m);
    expect(stdout).toContain('gauge PROBABILITY');
    // Not the organism's language: scored, but not calibrated for it.
    expect(stdout).toContain('trust EXPLORATORY');
    expect(stdout).toContain("note: outside the model's domain (");
    expect(stdout).toContain('note: backend "tiny"');
    expect(stdout).toMatch(/^ {2}threshold 0\.\d{4}: /m);
    // One row per step, numbered, with four decimals; at most one row marked (the first below the threshold).
    const rows = stdout.split('\n').filter((line) => /^ {2}\d +-?\d+\.\d{4} /.test(line));
    expect(rows).toHaveLength(4);
    expect(rows.filter((row) => row.includes('◀')).length).toBeLessThanOrEqual(1);
    // The outcome row repeats the last step's score.
    const lastScore = /^ {2}4 +(-?\d+\.\d{4})/.exec(rows[3]!)![1];
    expect(stdout).toMatch(new RegExp(`^ {2}outcome +${lastScore!.replace('.', '\\.')}$`, 'm'));
  });

  it('keeps table rows within 80 columns when stdout is not a terminal, and within the terminal width when it is', async () => {
    const long = { problem: 'P '.repeat(100), solution: `${'a long step '.repeat(20)}\nshort step` };
    const piped = await runMain(['score', '--problem', long.problem, '--solution', long.solution]);
    const rowLines = (stdout: string) => stdout.split('\n').filter((line) => !line.startsWith('  note') && !line.startsWith('        '));
    for (const line of rowLines(piped.stdout)) expect(Array.from(line).length).toBeLessThanOrEqual(80);
    expect(piped.stdout).toContain('…');
    const terminal = await runMain(['score', '--problem', long.problem, '--solution', long.solution], { stdoutIsTerminal: true, columns: 120 });
    const widest = Math.max(...rowLines(terminal.stdout).map((line) => Array.from(line).length));
    expect(widest).toBeGreaterThan(80);
    expect(widest).toBeLessThanOrEqual(120);
  });

  it('--json gives one object with every field; the last step score equals the outcome', async () => {
    const { exitCode, stdout } = await runMain(['score', '--problem', natalia.problem, '--solution', natalia.solution, '--json']);
    expect(exitCode).toBe(0);
    const record = onlyRecord(stdout);
    expect(record.steps).toEqual(naturalSteps);
    expect(record.stepScores).toHaveLength(4);
    expect(record.stepScores.every((score) => typeof score === 'number' && Number.isFinite(score))).toBe(true);
    expect(record.outcome).toBe(record.stepScores[3]);
    expect(record.aggregate).toEqual({ name: 'min', value: Math.min(...record.stepScores) });
    expect(record.meta).toMatchObject({ nSteps: 4, stepMethod: 'delimiter', droppedEmptySteps: 0, truncatedTokens: 0 });
    expect(record.meta.stepDetection).toBeUndefined();
    expect(record.backend).toBe('tiny');
    // The default PRM: probabilities through its calibration, and notes naming the backend, the model, the
    // calibration's domain, and that this record (GSM8K's text, not the organism's) is outside it.
    expect(record.gauge).toBe('PROBABILITY');
    expect(record.trust).toBe('EXPLORATORY');
    expect(record.notes).toEqual([
      expect.stringContaining('backend "tiny"'),
      expect.stringMatching(/^found step-detector\.json: learned step detector "reward-lens-organism-prm step ends"/),
      expect.stringMatching(/^model: reward-lens-organism-prm, the default PRM/),
      expect.stringMatching(/^calibrated \(platt\) on "organism calibration split .*domain: organism word problems/),
      expect.stringMatching(/^outside the model's domain \(vocabulary: \d+ of \d+ tokens .*; organism grammar: the problem is not/),
    ]);
    expect(record.line).toBeUndefined();
  });

  it('repeated --step flags give those steps, scored like the same text split by the delimiter', async () => {
    const fromSteps = onlyRecord(
      (await runMain(['score', '--problem', natalia.problem, ...naturalSteps.flatMap((step) => ['--step', step]), '--json'])).stdout,
    );
    expect(fromSteps.steps).toEqual(naturalSteps);
    expect(fromSteps.meta.stepMethod).toBe('given');
    const fromSolution = onlyRecord((await runMain(['score', '--problem', natalia.problem, '--solution', natalia.solution, '--json'])).stdout);
    expect(fromSteps.stepScores).toEqual(fromSolution.stepScores);
  });

  it("--delimiter '\\n\\n' splits at blank lines only (escapes interpreted)", async () => {
    const solution = 'First part, line one.\nFirst part, line two.\n\nSecond part.\n\nThe answer is 3.';
    const { stdout } = await runMain(['score', '--problem', 'p', '--solution', solution, '--delimiter', '\\n\\n', '--json']);
    const record = onlyRecord(stdout);
    expect(record.meta.nSteps).toBe(3);
    expect(record.steps).toEqual(['First part, line one.\nFirst part, line two.', 'Second part.', 'The answer is 3.']);
  });

  it('--delimiter-regex splits at every match', async () => {
    const { stdout } = await runMain([
      'score',
      '--problem',
      'p',
      '--solution',
      'Step 1: a. Step 2: b. Step 3: c.',
      '--delimiter-regex',
      '/ ?step \\d+: ?/i',
      '--json',
    ]);
    expect(onlyRecord(stdout).steps).toEqual(['a.', 'b.', 'c.']);
  });

  it('--delimiter-regex runs in linear time: a catastrophic pattern cannot hang the run', async () => {
    const solution = `${'a'.repeat(32)}!\nsecond step`;
    const { exitCode, stdout } = await runMain(['score', '--problem', 'p', '--solution', solution, '--delimiter-regex', '(a+)+$', '--json']);
    expect(exitCode).toBe(0);
    expect(onlyRecord(stdout).meta.nSteps).toBe(1);
  });

  it('--file naming a directory is a typed error naming the path, never a stack trace', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'rl-file-'));
    try {
      for (const name of ['records.jsonl', 'records.json', 'records']) {
        const path = join(folder, name);
        mkdirSync(path);
        const { exitCode, stderr } = await runMain(['score', '--file', path]);
        expect(exitCode).toBe(1);
        expect(stderr).toMatch(new RegExp(`^reward-lens: INVALID_INPUT: ${path}: (is a directory|cannot read the file: EISDIR)`));
        expect(stderr).not.toContain('internal error');
      }
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });

  it.skipIf(process.getuid?.() === 0)('--file naming an unreadable file is a typed error (skipped as root: permissions do not stop root)', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'rl-file-'));
    try {
      const locked = join(folder, 'locked.jsonl');
      writeFileSync(locked, '{}\n');
      chmodSync(locked, 0);
      const { exitCode, stderr } = await runMain(['score', '--file', locked]);
      expect(exitCode).toBe(1);
      expect(stderr).toMatch(/INVALID_INPUT: .*locked\.jsonl: cannot read the file: EACCES/);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });

  it('--table escapes control characters from the input', async () => {
    const { exitCode, stdout } = await runMain(['score', '--problem', 'p\u001b]0;owned\u0007', '--solution', 'a \u001b[2J\nb', '--table']);
    expect(exitCode).toBe(0);
    // biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point
    expect(stdout).not.toMatch(/[\u0000-\u0009\u000b-\u001f]/);
    expect(stdout).toContain('\\x1b]0;owned\\x07');
    expect(stdout).toContain('a \\x1b[2J');
  });

  it('a solution the delimiter does not split is one step, with a step-detection note', async () => {
    const { exitCode, stdout } = await runMain(['score', '--problem', 'What is 2+2?', '--solution', '2 + 2 = 4, so the answer is 4.', '--json']);
    expect(exitCode).toBe(0);
    const record = onlyRecord(stdout);
    expect(record.meta.nSteps).toBe(1);
    expect(record.meta.stepMethod).toBe('single');
    expect(record.meta.stepDetection).toMatch(/no delimiter/);
    expect(record.notes).toContain(record.meta.stepDetection);
    expect(record.outcome).toBe(record.stepScores[0]);
    const table = await runMain(['score', '--problem', 'What is 2+2?', '--solution', '2 + 2 = 4, so the answer is 4.']);
    expect(table.stdout).toContain('note: no delimiter');
  });

  it.each(['prod', 'mean', 'last'])('--aggregate %s adds that aggregate', async (name) => {
    const { stdout } = await runMain(['score', '--problem', natalia.problem, '--solution', natalia.solution, '--aggregate', name, '--json']);
    const record = onlyRecord(stdout);
    const scores = record.stepScores;
    const expected = { prod: scores.reduce((a, b) => a * b, 1), mean: scores.reduce((a, b) => a + b, 0) / scores.length, last: scores[scores.length - 1] }[
      name
    ];
    expect(record.aggregate.name).toBe(name);
    expect(record.aggregate.value).toBeCloseTo(expected!, 12);
  });

  it('the seed changes the weights and so the scores; the same seed repeats them', async () => {
    const scoresFor = async (seed: string) =>
      onlyRecord((await runMain(['score', '--problem', natalia.problem, '--solution', natalia.solution, '--seed', seed, '--json'])).stdout).stepScores;
    const seedZero = await scoresFor('0');
    expect(await scoresFor('0')).toEqual(seedZero);
    expect(await scoresFor('7')).not.toEqual(seedZero);
  });

  it('--backend auto runs the highest-priority backend that can: onnx-node, with the scores of tiny', async () => {
    const args = ['score', '--problem', natalia.problem, '--solution', natalia.solution, '--json'];
    const auto = await runMain([...args, '--backend', 'auto']);
    expect(auto.exitCode).toBe(0);
    expect(auto.stderr).toBe('');
    const onnx = onlyRecord(auto.stdout);
    const tiny = onlyRecord((await runMain([...args, '--backend', 'tiny'])).stdout);
    expect(onnx.backend).toBe('onnx-node');
    expect(onnx.notes[0]).toMatch(/^backend "onnx-node" ran the weights in .*model-default\/model/);
    expect(tiny.backend).toBe('tiny');
    expectScoresClose(onnx.stepScores, tiny.stepScores, 1e-4);
  });

  it('scores the bundled example file as a table, on the default PRM, calibrated, its arithmetic slip marked', async () => {
    const example = JSON.parse(await readFile(packagePath('examples/solution.json'), 'utf8')) as { solution: string };
    const { exitCode, stdout } = await runMain(['score', '--file', packagePath('examples/solution.json')]);
    expect(exitCode).toBe(0);
    for (const step of example.solution.split('\n')) expect(stdout).toContain(step);
    expect(stdout).toContain('problem  Lena buys 81 bags of stamps.');
    expect(stdout).toMatch(/reward-lens-organism-prm/);
    expect(stdout).toMatch(/CALIBRATED/);
    // The marker is on step 3 (13 × 2 = 62), the first below the shipped threshold, and the table says so.
    const marked = stdout.split('\n').filter((line) => /^ {2}\d +\d\.\d{4} .*◀/.test(line));
    expect(marked).toHaveLength(1);
    expect(marked[0]).toMatch(/^ {2}3 .*13 × 2 = 62 bags\.$/);
    expect(stdout).toMatch(/^ {2}threshold 0\.\d{4}: ◀ step 3 is the first step below it/m);
    expect(stdout).toContain('chosen on organism calibration split');
  });

  it("the bundled example's wrong step (13 × 2 = 62) is its lowest and its first below the default PRM's threshold; done right, none is", async () => {
    const { stdout } = await runMain(['score', '--file', packagePath('examples/solution.json'), '--json']);
    const record = onlyRecord(stdout) as ReturnType<typeof onlyRecord> & { threshold: { value: number }; predictedErrorStep: number };
    expect(record.stepScores).toHaveLength(4);
    const threshold = defaultModelFigures.threshold.value;
    expect(record.threshold.value).toBe(threshold);
    expect(record.predictedErrorStep).toBe(2);
    expect(record.stepScores.findIndex((score) => score < threshold)).toBe(2);
    expect(record.stepScores.indexOf(Math.min(...record.stepScores))).toBe(2);
    expect(record.aggregate).toEqual({ name: 'min', value: record.stepScores[2] });
    // The same solution with the step done right stays above it.
    const clean = [
      '81 bags in 3 piles is 81 ÷ 3 = 27 bags.',
      '27 bags less 14 bags is 27 − 14 = 13 bags.',
      '13 bags times 2 is 13 × 2 = 26 bags.',
      'The answer is 26.',
    ];
    const example = JSON.parse(await readFile(packagePath('examples/solution.json'), 'utf8')) as { problem: string };
    const fixed = onlyRecord((await runMain(['score', '--problem', example.problem, '--solution', clean.join('\n'), '--json'])).stdout) as typeof record;
    expect(fixed.stepScores.every((score) => score >= threshold)).toBe(true);
    expect(fixed.predictedErrorStep).toBe(-1);
    expect(fixed.trust).toBe('CALIBRATED');
  });

  it("a GSM8K-style solution is scored but noted outside the default PRM's domain, trust EXPLORATORY, with how much", async () => {
    const { stdout } = await runMain(['score', '--problem', natalia.problem, '--solution', natalia.solution, '--json']);
    const record = onlyRecord(stdout) as ReturnType<typeof onlyRecord> & { meta: { outOfDomain?: string } };
    expect(record.trust).toBe('EXPLORATORY');
    expect(record.meta.outOfDomain).toMatch(/organism grammar: the problem is not in the organism's language/);
    expect(record.meta.outOfDomain).toMatch(/vocabulary: \d+ of \d+ tokens \(\d+%\) are ones its training text never used/);
    expect(record.notes.some((note) => note.startsWith("outside the model's domain ("))).toBe(true);
  });
});

describe('score errors', () => {
  it.each([
    [['--problem', 'p', '--solution', 's', '--step', 'a'], 'either --solution or --step'],
    [['--solution', 's'], 'need --problem'],
    [['--problem', 'p'], '--problem needs --solution'],
    [['--problem', 'p', '--solution', 's', '--json', '--table'], 'either --json or --table'],
    [['--problem', 'p', '--solution', 's', '--seed', 'abc'], '--seed must be an integer'],
    [['--problem', 'p', '--solution', 's', '--seed', '1.5'], '--seed must be an integer'],
    [['--problem', 'p', '--solution', 's', '--batch-size', '0'], '--batch-size must be an integer from 1'],
    [['--problem', 'p', '--solution', 's', '--aggregate', 'median'], '--aggregate must be one of min, prod, mean, last'],
    [['--problem', 'p', '--solution', 's', '--delimiter', ''], '--delimiter must not be empty'],
    [['--problem', 'p', '--solution', 's', '--delimiter', 'x', '--delimiter-regex', 'y'], 'either --delimiter or --delimiter-regex'],
    [['--problem', 'p', '--solution', 's', '--delimiter-regex', '('], 'not a pattern the linear-time engine accepts'],
    [['--problem', 'p', '--solution', 's', '--delimiter-regex', '(a)\\1'], 'not a pattern the linear-time engine accepts'],
    [['--problem', 'p', '--solution', 's', '--delimiter-regex', '\\s*'], 'matches the empty string'],
    [['--problem', 'p', '--solution', 's', '--file', 'x.json'], 'give one input'],
    [['--problem', 'p', '--solution', 's', 'stray'], 'unexpected argument "stray"'],
    [[], 'no input'],
  ])('%j is a usage error (exit 2, usage on stderr)', async (args, message) => {
    const { exitCode, stdout, stderr } = await runMain(['score', ...args]);
    expect(exitCode).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toContain(message);
    expect(stderr).toContain('reward-lens score --problem');
  });

  it('an empty solution is a reward-lens error: one line with its code, exit 1, no stack', async () => {
    const { exitCode, stdout, stderr } = await runMain(['score', '--problem', 'p', '--solution', '   ']);
    expect(exitCode).toBe(1);
    expect(stdout).toBe('');
    expect(stderr).toBe('reward-lens: INVALID_INPUT: solution: the solution is empty or only whitespace\n');
  });

  it('an unknown backend lists why it could not be resolved', async () => {
    const { exitCode, stderr } = await runMain(['score', '--problem', 'p', '--solution', 's', '--backend', 'no-such-backend']);
    expect(exitCode).toBe(1);
    expect(stderr).toMatch(/^reward-lens: BACKEND_RESOLUTION: .*no-such-backend/);
    expect(stderr).toContain('registered: webgpu, onnx-node, onnx-web, tiny, webgpu-software');
    expect(stderr).not.toMatch(/\n\s+at /);
  });

  it('a missing file names the file', async () => {
    const { exitCode, stderr } = await runMain(['score', '--file', '/no/such/records.jsonl']);
    expect(exitCode).toBe(1);
    expect(stderr).toMatch(/^reward-lens: INVALID_INPUT: \/no\/such\/records\.jsonl: cannot read the file: ENOENT/);
  });
});
