import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { jsonLines, runMain } from '../../test/support/run-main.js';

const root = await mkdtemp(join(tmpdir(), 'reward-lens-cli-inspect-'));
afterAll(() => rm(root, { recursive: true, force: true }));
const problem = 'Compute (2+2)*3-5.';
const solution = 'First, 2+2=4.\nThen, 4*3=12.\nFinally, 12-5=7.';

describe('inspect', () => {
  it('prints the reward head after every layer (the last row the step scores) and the top tokens per step', { timeout: 60_000 }, async () => {
    const { exitCode, stdout, stderr } = await runMain([
      'inspect',
      '--seed',
      '0',
      '--problem',
      problem,
      '--solution',
      solution,
      '--ig-steps',
      '16',
      '--top',
      '3',
    ]);
    expect(stderr).toBe('');
    expect(exitCode).toBe(0);
    const rows = stdout.split('\n').filter((line) => /^ {6}\d( +-?\d+\.\d{4}){3}$/.test(line));
    expect(rows.map((row) => row.trim().split(/ +/)[0])).toEqual(['0', '1', '2']);
    const scored = jsonLines((await runMain(['score', '--seed', '0', '--problem', problem, '--solution', solution, '--json'])).stdout)[0] as {
      stepScores: number[];
    };
    expect(rows[2]!.trim().split(/ +/).slice(1)).toEqual(scored.stepScores.map((score) => score.toFixed(4)));
    expect(stdout).toMatch(/integrated gradients \(IG, 16 points from the pad baseline\)/);
    const igLines = stdout.split('\n').filter((line) => line.startsWith('    IG '));
    expect(igLines).toHaveLength(3);
    for (const line of igLines) expect(line.match(/"[^"]*" -?\d+\.\d{4}/g)).toHaveLength(3);
    expect(stdout).toMatch(/step 3 {2}score -?\d+\.\d{4} {2}\(IG sum -?\d+\.\d{4}; score − baseline -?\d+\.\d{4}\)/);
  });

  it('writes the page with --html, runs the probes on labelled data, and gives everything as JSON', { timeout: 120_000 }, async () => {
    const organism = await runMain(['organism', '--n', '40', '--seed', '2']);
    const data = join(root, 'organism.jsonl');
    await writeFile(data, organism.stdout);
    const html = join(root, 'inspect.html');
    const { exitCode, stdout } = await runMain([
      'inspect',
      '--seed',
      '0',
      '--problem',
      problem,
      '--step',
      'First, 2+2=4.',
      '--step',
      'Then, 4*3=12.',
      '--probe-data',
      data,
      '--html',
      html,
      '--json',
      '--ig-steps',
      '8',
    ]);
    expect(exitCode).toBe(0);
    const [result] = jsonLines(stdout) as {
      steps: unknown[];
      readout: { layers: number[]; scores: number[][] };
      attribution: { integrationSteps: number };
      probes: { layers: { layer: number }[]; data: string; heldOut: { solutions: number } };
    }[];
    expect(result!.steps).toHaveLength(2);
    expect(result!.readout.layers).toEqual([0, 1, 2]);
    expect(result!.attribution.integrationSteps).toBe(8);
    expect(result!.probes.layers.map((row) => row.layer)).toEqual([0, 1, 2]);
    expect(result!.probes.data).toBe(`40 solutions of ${data}`);
    expect(result!.probes.heldOut.solutions).toBe(12);
    const page = await readFile(html, 'utf8');
    expect(page).toContain('<script type="application/json" id="report-data">');
    expect(page).toContain('readout-heatmap');
    expect(page).not.toMatch(/<script[^>]+src=/);
  });

  it('explains its usage mistakes', async () => {
    expect((await runMain(['inspect', '--solution', solution])).stderr).toMatch(/--problem is required/);
    expect((await runMain(['inspect', '--problem', problem])).stderr).toMatch(/give --solution <text> or one --step <text> per step/);
    expect((await runMain(['inspect', '--problem', problem, '--solution', solution, '--baseline', 'one'])).stderr).toMatch(/--baseline must be pad or zero/);
    const beyond = await runMain(['inspect', '--seed', '0', '--problem', problem, '--solution', solution, '--layers', '0,7']);
    expect(beyond.exitCode).toBe(1);
    expect(beyond.stderr).toMatch(/layer 7 is not one of 0\.\.2/);
  });
});
