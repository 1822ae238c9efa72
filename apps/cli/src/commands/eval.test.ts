import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sharedDataPath } from '@reward-lens/test-data';
import { beforeAll, describe, expect, it } from 'vitest';
import { writeRandomClassifierFolder } from '../../test/support/model-folders.js';
import { jsonLines, runMain } from '../../test/support/run-main.js';

let folder: string;
let calibrationPath: string;
let dataPath: string;
let prmBenchPath: string;

/** A mixed slice of the real GSM8K split (erroneous items come first there): 12 to calibrate, 24 to score. */
beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), 'reward-lens-eval-'));
  const items = (JSON.parse(await readFile(sharedDataPath('processbench/gsm8k.json'), 'utf8')) as unknown[]).slice(190, 226);
  calibrationPath = join(folder, 'calibration.json');
  dataPath = join(folder, 'test.jsonl');
  await writeFile(calibrationPath, JSON.stringify(items.filter((_, index) => index % 3 === 0)));
  await writeFile(
    dataPath,
    items
      .filter((_, index) => index % 3 !== 0)
      .map((item) => `${JSON.stringify(item)}\n`)
      .join(''),
  );
  prmBenchPath = join(folder, 'prmbench.jsonl');
  const lines = (await readFile(sharedDataPath('prmbench/subset400.jsonl'), 'utf8')).split('\n').filter((line) => line.trim() !== '');
  // One record of each error type, shortest first, to keep the tiny model's work small.
  const byType = new Map<string, string>();
  for (const line of lines.sort((a, b) => a.length - b.length)) {
    const type = (JSON.parse(line) as { classification: string }).classification;
    if (!byType.has(type)) byType.set(type, line);
  }
  await writeFile(prmBenchPath, `${[...byType.values()].join('\n')}\n`);
});

describe('eval', () => {
  it('scores a ProcessBench split with a threshold chosen on a calibration split: JSON metrics, predictions, a report', async () => {
    const predictions = join(folder, 'predictions.jsonl');
    const report = join(folder, 'report.html');
    const saved = join(folder, 'calibration-fit.json');
    const { exitCode, stdout, stderr } = await runMain([
      'eval',
      '--data',
      dataPath,
      '--calibration',
      calibrationPath,
      '--calibration-domain',
      'ProcessBench GSM8K',
      '--save-calibration',
      saved,
      '--truncation',
      'left',
      '--json',
      '--predictions',
      predictions,
      '--report',
      report,
    ]);
    expect(stderr).toBe('');
    expect(exitCode).toBe(0);
    const result = JSON.parse(stdout) as {
      format: string;
      items: number;
      threshold: { value: number; source: string };
      metrics: { errorAccuracy: number; correctAccuracy: number; f1: number; erroneousItems: number; correctItems: number };
      auroc: { auroc: number };
      drift: { histogram: unknown[] };
      reliability: { before: { ece: number }; after: { ece: number } };
      calibration: { method: string; set: { name: string; domain: string; items: number } };
    };
    expect(result.format).toBe('processbench');
    expect(result.items).toBe(24);
    expect(result.threshold.source).toBe('chosen on "calibration.json" (12 items) for the best F1 there');
    expect(result.calibration).toMatchObject({ method: 'isotonic', set: { name: 'calibration.json', domain: 'ProcessBench GSM8K', items: 12 } });
    expect(result.drift.histogram).toHaveLength(10);
    expect(typeof result.reliability.after.ece).toBe('number');

    // The predictions file: one line per item, and ProcessBench's metric recomputed from it agrees.
    const lines = jsonLines(await readFile(predictions, 'utf8')) as { id: string; label: number; prediction: number; stepScores: (number | null)[] }[];
    expect(lines).toHaveLength(24);
    expect(Object.keys(lines[0]!)).toEqual(['id', 'label', 'prediction', 'stepScores']);
    const erroneous = lines.filter((line) => line.label !== -1);
    const correct = lines.filter((line) => line.label === -1);
    expect(erroneous.length).toBe(result.metrics.erroneousItems);
    expect(result.metrics.errorAccuracy).toBeCloseTo(erroneous.filter((line) => line.prediction === line.label).length / erroneous.length, 12);
    expect(result.metrics.correctAccuracy).toBeCloseTo(correct.filter((line) => line.prediction === -1).length / correct.length, 12);

    const calibration = JSON.parse(await readFile(saved, 'utf8')) as { format: string; set: { domain: string } };
    expect(calibration).toMatchObject({ format: 'reward-lens.step-calibration', set: { domain: 'ProcessBench GSM8K' } });
    const html = await readFile(report, 'utf8');
    expect(html).toMatch(/^<!doctype html>/);
    expect(html).toContain('id="report-data"');
  });

  it('prints a summary with the metric, AUROC, drift and calibration, and stays quiet on stderr for a short run', async () => {
    const { exitCode, stdout, stderr } = await runMain(['eval', '--data', dataPath, '--truncation', 'left', '--threshold', '0.1']);
    expect(exitCode).toBe(0);
    expect(stdout).toMatch(/^threshold +0\.1000 \(fixed: given with --threshold\)$/m);
    expect(stdout).toMatch(/^ProcessBench +accuracy on erroneous \d+\.\d% \(\d+\/\d+\) +on correct \d+\.\d% \(\d+\/\d+\) +F1 \d+\.\d%$/m);
    for (const label of ['step AUROC', 'outcome drift', 'calibration']) expect(stdout).toMatch(new RegExp(`^${label} +\\S`, 'm'));
    expect(stderr).toBe('');
  });

  it('without truncation, solutions longer than the model are counted as not scored, with a hint, and the exit code says so', async () => {
    const long = join(folder, 'long.jsonl');
    const item = { id: 'long', problem: 'p', steps: ['x'.repeat(3000), 'y'], label: -1 };
    await writeFile(long, `${JSON.stringify(item)}\n${JSON.stringify({ ...item, id: 'short', steps: ['a = 1.', 'b = 2.'] })}\n`);
    const { exitCode, stdout } = await runMain(['eval', '--data', long]);
    expect(exitCode).toBe(1);
    expect(stdout).toMatch(/^not scored +1 solution \(SEQUENCE_TOO_LONG ×1\); --truncation left keeps the end of long solutions$/m);
  });

  it('--format prmbench gives per-type metrics and the verification index', async () => {
    // The seeded model (small and fast): this is about the format, not about what a model finds.
    const { exitCode, stdout } = await runMain(['eval', '--seed', '0', '--data', prmBenchPath, '--format', 'prmbench', '--truncation', 'left', '--json']);
    expect(exitCode).toBe(0);
    const result = JSON.parse(stdout) as {
      format: string;
      threshold: { value: number; source: string };
      metrics: { byType: Record<string, unknown> };
      verification: { pairs: number };
    };
    expect(result.format).toBe('prmbench');
    // The tiny model's raw value head: 0 is sigmoid 0.5, PRMBench's validity threshold.
    expect(result.threshold.value).toBe(0);
    expect(Object.keys(result.metrics.byType)).toContain('correct');
    expect(Object.keys(result.metrics.byType).length).toBeGreaterThanOrEqual(9);
    expect(result.verification.pairs).toBeGreaterThan(0);
  });

  it('evaluates a model folder read with its recipe (a sequence classifier read at every step end)', async () => {
    const model = join(folder, 'classifier');
    await writeRandomClassifierFolder(model, { architectures: ['LlamaForSequenceClassification'], maxPositions: 256 });
    const { exitCode, stdout } = await runMain([
      'eval',
      '--model',
      model,
      '--data',
      dataPath,
      '--calibration',
      calibrationPath,
      '--truncation',
      'left',
      '--json',
    ]);
    expect(exitCode).toBe(0);
    const result = JSON.parse(stdout) as { items: number; model: string; notes: string[]; auroc: { positives: number } };
    expect(result.items).toBe(24);
    expect(result.model).toBe(model);
    expect(result.auroc.positives).toBeGreaterThan(0);
  });

  it.each([
    [['eval'], /--data <file> is required/],
    [['eval', '--data', 'x.jsonl', '--calibration', 'c.jsonl', '--threshold', '0.5'], /not both/],
    [['eval', '--data', 'x.jsonl', '--format', 'csv'], /--format must be processbench or prmbench/],
    [['eval', '--data', 'x.jsonl', '--save-calibration', 'c.json'], /--save-calibration needs --calibration/],
  ])('%j is a usage error', async (argv, message) => {
    const { exitCode, stderr } = await runMain(argv);
    expect(exitCode).toBe(2);
    expect(stderr).toMatch(message);
  });

  it('a missing data file fails at once, naming it', async () => {
    const { exitCode, stderr } = await runMain(['eval', '--data', join(folder, 'missing.jsonl')]);
    expect(exitCode).toBe(1);
    expect(stderr).toMatch(/INVALID_INPUT: .*missing\.jsonl: cannot read the file/);
  });
});
