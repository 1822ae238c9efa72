import { sharedDataPath } from '@reward-lens/test-data';
import { describe, expect, it } from 'vitest';
import { readPrmBenchFile } from '../node/read-prmbench-file.js';
import { parsePrmBenchRecord, prmBenchSamples } from './prmbench-item.js';
import { PrmBenchTally } from './prmbench-tally.js';

/** PRMBench's eval_on_hallucination_step, transcribed for one sample (validity labels in, counts out). */
function referenceCounts(errorSteps1Based: number[], labels: boolean[]) {
  const errors = errorSteps1Based.map((step) => step - 1);
  let [tp, fp, tn, fn] = [0, 0, 0, 0];
  const first = errors.length > 0 ? Math.min(...errors) : -1;
  let firstErrorAcc: number | undefined;
  labels.forEach((label, index) => {
    if (index === first) firstErrorAcc = label ? 0 : 1;
    if (errors.includes(index)) label ? fp++ : tn++;
    else label ? tp++ : fn++;
  });
  return { tp, fp, tn, fn, firstErrorAcc };
}

describe('PRMBench', () => {
  it("counts steps as PRMBench's eval_on_hallucination_step does (hand-checked sample)", () => {
    const scores = [0.9, 0.3, 0.2, 0.8, 0.6];
    const errorSteps = [2, 4]; // 1-based, as in the file
    const labels = scores.map((score) => score > 0.5);
    const reference = referenceCounts(errorSteps, labels);
    // Steps 1, 3, 5 are correct: predicted valid, invalid, valid → TP 2, FN 1. Steps 2, 4 erroneous: invalid, valid → TN 1, FP 1.
    expect(reference).toEqual({ tp: 2, fp: 1, tn: 1, fn: 1, firstErrorAcc: 1 });
    const tally = new PrmBenchTally(0.5);
    tally.add('confidence', [1, 3], scores);
    const metrics = tally.metrics();
    expect(metrics.byType.confidence!.counts).toMatchObject({
      truePositive: 2,
      falsePositive: 1,
      trueNegative: 1,
      falseNegative: 1,
      firstErrorHits: 1,
      firstErrorSamples: 1,
    });
    // precision 2/3, recall 2/3 → F1 2/3; negative precision 1/2, recall 1/2 → 1/2; PRMScore 7/12.
    expect(metrics.byType.confidence!.f1).toBeCloseTo(2 / 3, 12);
    expect(metrics.byType.confidence!.negativeF1).toBeCloseTo(1 / 2, 12);
    expect(metrics.byType.confidence!.prmScore).toBeCloseTo(7 / 12, 12);
    expect(metrics.total.prmScore).toBeCloseTo(7 / 12, 12);
  });

  it('keeps correct samples out of the total, as PRMBench does', () => {
    const tally = new PrmBenchTally(0.5);
    tally.add('correct', [], [0.9, 0.1]);
    tally.add('circular', [1], [0.9, 0.1]);
    const metrics = tally.metrics();
    expect(metrics.byType.correct!.counts).toMatchObject({ truePositive: 1, falseNegative: 1 });
    expect(metrics.total.samples).toBe(1);
    expect(metrics.total.counts).toMatchObject({ truePositive: 1, falsePositive: 0, trueNegative: 1, falseNegative: 0 });
  });

  it('reads the shared subset and builds the samples as its task loader does', async () => {
    const { records, failures } = await readPrmBenchFile(sharedDataPath('prmbench/subset400.jsonl'));
    expect(failures).toEqual([]);
    expect(records).toHaveLength(394);
    const samples = [...prmBenchSamples(records)];
    const byType = new Map<string, number>();
    for (const sample of samples) byType.set(sample.classification, (byType.get(sample.classification) ?? 0) + 1);
    expect(byType.get('correct')).toBe(byType.get('redundency'));
    expect(samples.length).toBe(new Set(records.map((record) => `${record.classification}_${record.idx}`)).size + byType.get('correct')!);
    // error_steps are 1-based in the file and 0-based here.
    expect(records[0]!.errorSteps).toEqual([4, 5]);
    // 11 published records name a step past the end of their solution; they are kept, as PRMBench keeps them.
    expect(records.filter((record) => record.errorSteps.some((step) => step >= record.steps.length))).toHaveLength(11);
  });

  it('refuses a malformed record with the field named', () => {
    expect(() =>
      parsePrmBenchRecord(
        { idx: 1, classification: 'x', modified_process: ['a'], original_process: ['a'], modified_question: 'q', error_steps: [0] },
        'line 3',
      ),
    ).toThrow(/line 3: "error_steps" must list 1-based step numbers/);
  });
});
