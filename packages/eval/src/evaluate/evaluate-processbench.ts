import type { ProcessBenchRecord } from '../processbench/processbench-item.js';
import { ProcessBenchEvaluator, type ItemPrediction, type ProcessBenchEvaluation, type ProcessBenchEvaluationOptions } from './processbench-evaluation.js';
import { scoreInBatches, type ScoringJob, type StepScorer } from './step-scorer.js';
import type { ProcessBenchItem } from '../processbench/processbench-item.js';

/** A record that could not be read or scored. */
export interface RecordFailure {
  location: string;
  id?: string;
  code: string;
  message: string;
}

export interface EvaluateProcessBenchOptions extends ProcessBenchEvaluationOptions {
  /** Solutions per forward pass. Default 8. */
  batchSize?: number;
  /** Called with every item's prediction, in input order (write `--predictions` here). */
  onItem?: (prediction: ItemPrediction) => void | Promise<void>;
  onFailure?: (failure: RecordFailure) => void | Promise<void>;
  onProgress?: (progress: { items: number; failures: number }) => void;
}

export interface ProcessBenchRun {
  evaluation: ProcessBenchEvaluation;
  /** The first 100 failures; `failureCount` counts them all. */
  failures: RecordFailure[];
  failureCount: number;
  /** The evaluator, whose `labelledSteps` sample can fit a calibration. */
  evaluator: ProcessBenchEvaluator;
}

async function* jobsOf(
  records: AsyncIterable<ProcessBenchRecord> | Iterable<ProcessBenchRecord>,
  failures: (failure: RecordFailure) => Promise<void>,
): AsyncGenerator<ScoringJob<{ item: ProcessBenchItem; location: string }>> {
  for await (const record of records) {
    if ('error' in record) {
      await failures({ location: record.location, code: record.error.code, message: record.error.message });
      continue;
    }
    yield { problem: record.item.problem, steps: record.item.steps, tag: { item: record.item, location: record.location } };
  }
}

/**
 * Scores a ProcessBench-format stream with a PRM and evaluates it: ProcessBench's metric at the
 * given threshold, AUROC, outcome drift, reliability, best-of-N over repeated problems. Items are
 * scored in batches and dropped once counted, so a stream of any length runs in bounded memory.
 *
 * @example
 * const run = await evaluateProcessBench(prm, readProcessBenchFile('test.jsonl'), { threshold });
 * run.evaluation.metrics.f1;
 */
export async function evaluateProcessBench(
  scorer: StepScorer,
  records: AsyncIterable<ProcessBenchRecord> | Iterable<ProcessBenchRecord>,
  options: EvaluateProcessBenchOptions,
): Promise<ProcessBenchRun> {
  const evaluator = new ProcessBenchEvaluator(options);
  const failures: RecordFailure[] = [];
  let failureCount = 0;
  let items = 0;
  const fail = async (failure: RecordFailure) => {
    failureCount++;
    if (failures.length < 100) failures.push(failure);
    await options.onFailure?.(failure);
    options.onProgress?.({ items, failures: failureCount });
  };
  for await (const scored of scoreInBatches(scorer, jobsOf(records, fail), options.batchSize ?? 8)) {
    const { item, location } = scored.tag;
    if ('error' in scored) {
      await fail({ location, id: item.id, ...scored.error });
      continue;
    }
    const prediction = evaluator.add(
      { ...item, stepScores: scored.stepScores, ...(item.finalAnswerCorrect !== undefined ? { finalAnswerCorrect: item.finalAnswerCorrect } : {}) },
      scored,
    );
    items++;
    await options.onItem?.(prediction);
    options.onProgress?.({ items, failures: failureCount });
  }
  return { evaluation: evaluator.result(), failures, failureCount, evaluator };
}

/** Scores a (small) calibration split and keeps every item with its scores, for `chooseThreshold` and a calibration fit. */
export async function scoreCalibrationSplit(
  scorer: StepScorer,
  records: AsyncIterable<ProcessBenchRecord> | Iterable<ProcessBenchRecord>,
  options: { batchSize?: number } = {},
): Promise<{ items: (ProcessBenchItem & { stepScores: Float32Array })[]; failures: RecordFailure[]; gauge?: string }> {
  const items: (ProcessBenchItem & { stepScores: Float32Array })[] = [];
  const failures: RecordFailure[] = [];
  let gauge: string | undefined;
  const fail = async (failure: RecordFailure) => {
    failures.push(failure);
  };
  for await (const scored of scoreInBatches(scorer, jobsOf(records, fail), options.batchSize ?? 8)) {
    if ('error' in scored) failures.push({ location: scored.tag.location, id: scored.tag.item.id, ...scored.error });
    else {
      gauge ??= scored.gauge;
      items.push({ ...scored.tag.item, stepScores: scored.stepScores });
    }
  }
  return { items, failures, ...(gauge !== undefined ? { gauge } : {}) };
}
