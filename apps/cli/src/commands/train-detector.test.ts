import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { validateStepDetector } from '@reward-lens/core';
import { createOrganism } from '@reward-lens/organism';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jsonLines, runMain } from '../../test/support/run-main.js';

const root = await mkdtemp(join(tmpdir(), 'reward-lens-cli-detector-'));
afterAll(() => rm(root, { recursive: true, force: true }));
const data = join(root, 'organism.jsonl');
const detectorFile = join(root, 'step-detector.json');
const item = createOrganism({ seed: 5 }).item(2);
const oneLine = item.steps.join(' ');

describe('train-detector and score --step-detection', () => {
  beforeAll(async () => {
    const organism = await runMain(['organism', '--n', '120', '--seed', '0']);
    await writeFile(data, organism.stdout);
  });

  it('fits the tiny model’s detector on organism text (held-out F1 ≥ 0.95) and writes step-detector.json', { timeout: 180_000 }, async () => {
    const { exitCode, stdout, stderr } = await runMain(['train-detector', '--seed', '0', '--data', data, '--out', detectorFile, '--layers', '0,2', '--json']);
    expect(stderr).toBe('');
    expect(exitCode).toBe(0);
    const [report] = jsonLines(stdout) as { file: string; layer: number; heldOut: { f1: number; boundaries: number }; layers: { layer: number }[] }[];
    expect(report!.file).toBe(detectorFile);
    expect(report!.layers.map((entry) => entry.layer)).toEqual([0, 2]);
    expect(report!.heldOut.f1).toBeGreaterThanOrEqual(0.95);
    const detector = validateStepDetector(JSON.parse(await readFile(detectorFile, 'utf8')));
    expect(detector.heldOut.data).toMatch(/^24 records of .*organism\.jsonl held out at random \(fraction 0\.2, seed 0\), steps joined with spaces$/);
    expect(detector.model.recipe).toBe('plain-value');

    const again = await runMain(['train-detector', '--seed', '0', '--data', data, '--out', detectorFile]);
    expect(again.exitCode).toBe(1);
    expect(again.stderr).toMatch(/already exists; pass --force to replace it/);
  });

  it('scores a solution written on one line with learned steps, and says so; --step-detection delimiter keeps it whole', { timeout: 60_000 }, async () => {
    const learned = await runMain(['score', '--seed', '0', '--problem', item.problem, '--solution', oneLine, '--step-detector', detectorFile, '--json']);
    expect(learned.exitCode).toBe(0);
    const [record] = jsonLines(learned.stdout) as { steps: string[]; meta: { stepMethod: string; stepDetection: string }; notes: string[] }[];
    expect(record!.steps).toEqual(item.steps);
    expect(record!.meta.stepMethod).toBe('learned');
    expect(record!.meta.stepDetection).toMatch(
      /^no delimiter "\\n" found: \d+ steps found by the learned step-boundary detector "learned-steps-plain-value" \(linear probe on layer \d/,
    );
    const table = await runMain(['score', '--seed', '0', '--problem', item.problem, '--solution', oneLine, '--step-detector', detectorFile]);
    expect(table.stdout).toMatch(/note: no delimiter "\\n" found: \d+ steps found by the learned\s+step-boundary\s+detector/);

    const whole = await runMain([
      'score',
      '--seed',
      '0',
      '--problem',
      item.problem,
      '--solution',
      oneLine,
      '--step-detector',
      detectorFile,
      '--step-detection',
      'delimiter',
      '--json',
    ]);
    const [single] = jsonLines(whole.stdout) as { steps: string[]; meta: { stepMethod: string; stepDetection: string } }[];
    expect(single!.meta.stepMethod).toBe('single');
    expect(single!.meta.stepDetection).toMatch(/Step detection is 'delimiter'/);

    const missing = await runMain(['score', '--seed', '0', '--problem', item.problem, '--solution', oneLine, '--step-detection', 'learned']);
    expect(missing.exitCode).toBe(1);
    expect(missing.stderr).toMatch(/stepDetection 'learned' needs a learned step-boundary detector/);

    // The default PRM ships its own detector: the same one-line solution is split with no flag.
    const shipped = jsonLines((await runMain(['score', '--problem', item.problem, '--solution', oneLine, '--json'])).stdout) as {
      steps: string[];
      meta: { stepMethod: string; stepDetection: string };
    }[];
    expect(shipped[0]!.steps).toEqual(item.steps);
    expect(shipped[0]!.meta.stepMethod).toBe('learned');
    expect(shipped[0]!.meta.stepDetection).toMatch(/held-out precision 1\.000, recall 1\.000/);
  });

  it('explains its usage mistakes', async () => {
    expect((await runMain(['train-detector', '--out', detectorFile])).stderr).toMatch(/--data is required/);
    expect((await runMain(['train-detector', '--data', data])).stderr).toMatch(/--out is required without --model/);
    expect((await runMain(['train-detector', '--data', data, '--out', detectorFile, '--layers', '0,0'])).stderr).toMatch(/lists a layer twice/);
    expect((await runMain(['score', '--problem', 'p', '--solution', 's', '--step-detection', 'maybe'])).stderr).toMatch(
      /--step-detection must be one of auto, learned, delimiter/,
    );
    const corrupt = join(root, 'corrupt.json');
    await writeFile(corrupt, '{"format": "reward-lens.step-detector"}');
    const bad = await runMain(['score', '--problem', 'p', '--solution', 's', '--step-detector', corrupt]);
    expect(bad.exitCode).toBe(1);
    expect(bad.stderr).toContain(`${corrupt}: version undefined is not supported`);
  });
});
