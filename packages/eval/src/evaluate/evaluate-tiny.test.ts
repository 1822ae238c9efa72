import '@reward-lens/backend-tiny/register';
import { ProcessRM } from '@reward-lens/core';
import { sharedDataPath } from '@reward-lens/test-data';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fitStepCalibration } from '../calibration/fit-calibration.js';
import { CalibrationLeakError } from '../errors/calibration-leak-error.js';
import { readProcessBenchFile } from '../node/read-processbench-file.js';
import { chooseThreshold } from '../processbench/choose-threshold.js';
import type { ProcessBenchItem, ProcessBenchRecord } from '../processbench/processbench-item.js';
import { evaluateProcessBench, scoreCalibrationSplit, type ProcessBenchRun } from './evaluate-processbench.js';
import type { ItemPrediction } from './processbench-evaluation.js';

/**
 * The real GSM8K split (its erroneous items come first): of items 167-246, about half erroneous, the
 * even ones calibrate and the odd ones are scored (kept short for 2 shared cores).
 */
async function split(): Promise<{ calibration: ProcessBenchRecord[]; test: ProcessBenchRecord[] }> {
  const records: ProcessBenchRecord[] = [];
  let index = 0;
  for await (const record of await readProcessBenchFile(sharedDataPath('processbench/gsm8k.json')))
    if (index++ >= 167 && records.length < 80) records.push(record);
  return { calibration: records.filter((_, at) => at % 2 === 0), test: records.filter((_, at) => at % 2 === 1) };
}

describe('evaluating the seeded tiny PRM on ProcessBench GSM8K', () => {
  let prm: ProcessRM;
  let data: Awaited<ReturnType<typeof split>>;
  let calibrationItems: (ProcessBenchItem & { stepScores: Float32Array })[];
  let run: ProcessBenchRun;
  const predictions: ItemPrediction[] = [];

  beforeAll(async () => {
    prm = await ProcessRM.fromTiny({ seed: 0, truncation: 'left' });
    data = await split();
    calibrationItems = (await scoreCalibrationSplit(prm, data.calibration)).items;
    const threshold = chooseThreshold(calibrationItems, { name: 'gsm8k even items 167-245' });
    run = await evaluateProcessBench(prm, data.test, { threshold, onItem: (prediction) => void predictions.push(prediction) });
  });
  afterAll(() => prm.dispose());

  it("computes ProcessBench's metric from the predictions it reports", () => {
    // Recomputed here the way run_eval.py does: split by label, mean of matches, harmonic mean.
    const erroneous = predictions.filter((entry) => entry.label !== -1);
    const correct = predictions.filter((entry) => entry.label === -1);
    const acc1 = erroneous.filter((entry) => entry.prediction === entry.label).length / erroneous.length;
    const acc2 = correct.filter((entry) => entry.prediction === entry.label).length / correct.length;
    expect(predictions).toHaveLength(40);
    expect(run.evaluation.metrics.errorAccuracy).toBeCloseTo(acc1, 12);
    expect(run.evaluation.metrics.correctAccuracy).toBeCloseTo(acc2, 12);
    expect(run.evaluation.metrics.f1).toBeCloseTo(acc1 + acc2 === 0 ? 0 : (2 * acc1 * acc2) / (acc1 + acc2), 12);
    for (const entry of predictions) {
      const first = entry.stepScores.findIndex((score) => score < run.evaluation.threshold.value);
      expect(entry.prediction).toBe(first);
    }
  });

  it('reports the threshold chosen on the calibration split, never on the scored one', async () => {
    expect(run.evaluation.threshold.source).toBe('chosen on "gsm8k even items 167-245" (40 items) for the best F1 there');
    const threshold = chooseThreshold(calibrationItems, { name: 'gsm8k even items 167-245' });
    await expect(evaluateProcessBench(prm, data.calibration.slice(0, 3), { threshold })).rejects.toThrow(CalibrationLeakError);
  });

  it('gives a step AUROC, the argmin histogram and a reliability diagram read through a sigmoid (raw value head)', () => {
    const { auroc, drift, reliability } = run.evaluation;
    expect(auroc.auroc).toBeGreaterThanOrEqual(0);
    expect(auroc.auroc).toBeLessThanOrEqual(1);
    // Each erroneous item has one first-erroneous step (left truncation may have cut a few: NaN, left out).
    expect(auroc.negatives).toBeLessThanOrEqual(run.evaluation.metrics.erroneousItems);
    expect(auroc.negatives).toBeGreaterThan(0);
    expect(drift.histogram.reduce((total, bin) => total + bin.count, 0)).toBe(drift.items);
    expect(reliability.reading).toBe('sigmoid');
    expect(reliability.before.count).toBe(auroc.positives + auroc.negatives);
  });

  it('a calibration fitted on the calibration split makes results CALIBRATED, naming the set, its size and its domain', async () => {
    const steps = calibrationItems.flatMap((item) =>
      Array.from(item.stepScores.slice(0, item.label === -1 ? item.stepScores.length : item.label + 1), (score, step) => ({
        score,
        label: (step === item.label ? 0 : 1) as 0 | 1,
      })),
    );
    const calibration = fitStepCalibration(steps, {
      method: 'platt',
      reading: 'sigmoid',
      set: { name: 'gsm8k even items 167-245', domain: 'ProcessBench GSM8K solutions', items: 40 },
    });
    const calibrated = prm.withCalibration(JSON.parse(JSON.stringify(calibration)));
    const record = data.test[0]!;
    if (!('item' in record)) throw new Error('the first test record did not parse');
    const input = [{ problem: record.item.problem, steps: record.item.steps }];
    const [raw, scored, outcome] = await Promise.all([prm.stepScores(input), calibrated.stepScores(input), calibrated.score(input)]);
    expect(raw.trust).toBe('EXPLORATORY');
    expect(scored.trust).toBe('CALIBRATED');
    expect(scored.gauge).toBe('PROBABILITY');
    expect(scored.notes.at(-1)).toContain(`"gsm8k even items 167-245": ${steps.length} labelled steps from 40 solutions, domain: ProcessBench GSM8K solutions`);
    const { slope, intercept } = calibration.map as { slope: number; intercept: number };
    Array.from(raw.value.curves[0]!).forEach((score, step) => {
      expect(scored.value.curves[0]![step]).toBeCloseTo(1 / (1 + Math.exp(-(slope * score + intercept))), 6);
    });
    expect(outcome.trust).toBe('CALIBRATED');
    expect(outcome.value.values[0]).toBeCloseTo(scored.value.curves[0]!.at(-1)!, 6);
  });
});
