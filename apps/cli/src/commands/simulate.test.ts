import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { mcLabelsClosedForm } from '@reward-lens/eval';
import { describe, expect, it } from 'vitest';
import { runMain } from '../../test/support/run-main.js';

describe('simulate', () => {
  it('mc-labels prints a table of 14 rows, close to the closed form', async () => {
    const { exitCode, stdout, stderr } = await runMain(['simulate', 'mc-labels']);
    expect(exitCode).toBe(0);
    expect(stderr).toBe('');
    const rows = stdout.split('\n').filter((line) => /^0\.[97] +\d+ /.test(line));
    expect(rows).toHaveLength(14);
    const [c, n, accuracy] = rows[0]!.trim().split(/\s+/).map(Number);
    expect([c, n]).toEqual([0.9, 1]);
    expect(Math.abs(accuracy! - mcLabelsClosedForm(0.9, 1).accuracy)).toBeLessThan(0.012);
  });

  it('mc-labels --json gives {rows: [{c, n, accuracy, falseCorrect, falseWrong}]}, the same for the same seed', async () => {
    const first = JSON.parse((await runMain(['simulate', 'mc-labels', '--json', '--seed', '3'])).stdout) as { rows: Record<string, number>[] };
    const again = JSON.parse((await runMain(['simulate', 'mc-labels', '--json', '--seed', '3'])).stdout);
    expect(first).toEqual(again);
    expect(first.rows).toHaveLength(14);
    expect(Object.keys(first.rows[0]!)).toEqual(['c', 'n', 'accuracy', 'falseCorrect', 'falseWrong']);
  });

  it('best-of-n --json gives rows {rule, finalAccuracy, processCorrect, meanSteps} and meanSampledSteps', async () => {
    const { exitCode, stdout } = await runMain(['simulate', 'best-of-n', '--json']);
    expect(exitCode).toBe(0);
    const result = JSON.parse(stdout) as { rows: Record<string, unknown>[]; meanSampledSteps: number };
    expect(result.rows.map((row) => row.rule)).toEqual(['min', 'prod', 'mean', 'last', 'orm']);
    expect(Object.keys(result.rows[0]!)).toEqual(['rule', 'finalAccuracy', 'processCorrect', 'meanSteps']);
    expect(Math.abs(result.meanSampledSteps - 10)).toBeLessThan(0.1);
  });

  it('best-of-n prints a table and writes a report with its plots', async () => {
    const report = join(await mkdtemp(join(tmpdir(), 'reward-lens-simulate-')), 'toy.html');
    const { exitCode, stdout } = await runMain(['simulate', 'best-of-n', '--report', report]);
    expect(exitCode).toBe(0);
    expect(stdout).toMatch(/^orm +0\.\d{3} +0\.\d{3} +\d+\.\d{2}$/m);
    expect(stdout).toMatch(/mean steps sampled: \d+\.\d{2}/);
    const html = await readFile(report, 'utf8');
    expect(html).toContain('"bestOfN"');
    expect(html).toContain('uPlot');
  });

  it.each([
    [['simulate'], /name an experiment/],
    [['simulate', 'coin-flips'], /unknown experiment "coin-flips"/],
    [['simulate', 'mc-labels', '--seed', '1.5'], /--seed must be an integer/],
  ])('%j is a usage error', async (argv, message) => {
    const { exitCode, stderr } = await runMain(argv);
    expect(exitCode).toBe(2);
    expect(stderr).toMatch(message);
  });
});
