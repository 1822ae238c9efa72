import type { BackendV1, ProcessRM, ReadingRecipe } from '@reward-lens/core';
import { firstErrorStep, type LabelPolicy, type StepRecord } from '../data/step-record.js';
import { toTrainingExample, type TrainingExample } from '../data/training-example.js';
import { forwardLoss } from '../loss/batch-loss.js';
import { processBenchF1, type ProcessBenchMetrics } from './processbench-f1.js';

export interface HeldOutMetrics extends ProcessBenchMetrics {
  /** Mean per-step cross-entropy over the steps the label policy counts. */
  loss: number;
  items: number;
  /** Records that could not be scored (too long for the model, or unlabelled). */
  skipped: number;
}

export interface HeldOutSet {
  examples: TrainingExample[];
  /** Per example, the first erroneous step by its labels (-1: none). */
  labels: number[];
  skipped: number;
}

/** Tokenizes held-out records once, for every evaluation of a run. */
export function prepareHeldOut(prm: ProcessRM, records: readonly StepRecord[], policy: LabelPolicy): HeldOutSet {
  const examples: TrainingExample[] = [];
  const labels: number[] = [];
  let skipped = 0;
  for (const record of records) {
    const example = toTrainingExample(prm, record, policy);
    if ('skipped' in example) skipped++;
    else {
      examples.push(example);
      labels.push(firstErrorStep(record));
    }
  }
  return { examples, labels, skipped };
}

/**
 * The held-out loss and ProcessBench's F1 (the prediction is the first step scoring below
 * `threshold`) from forward passes over batches of about `batchTokens` tokens.
 */
export async function evaluateHeldOut(
  backend: BackendV1,
  set: HeldOutSet,
  recipe: ReadingRecipe,
  columns: number[] | undefined,
  padTokenId: number,
  options: { threshold: number; batchTokens: number },
): Promise<HeldOutMetrics> {
  let lossTotal = 0;
  let steps = 0;
  const scored: { label: number; scores: Float64Array }[] = [];
  for (let start = 0; start < set.examples.length; ) {
    let end = start;
    let tokens = 0;
    while (end < set.examples.length && (end === start || tokens + set.examples[end]!.inputIds.length <= options.batchTokens))
      tokens += set.examples[end++]!.inputIds.length;
    const batch = set.examples.slice(start, end);
    const result = await forwardLoss(backend, batch, recipe, columns, padTokenId);
    if (result.steps > 0) {
      lossTotal += result.loss * result.steps;
      steps += result.steps;
    }
    result.probabilities.forEach((scores, row) => scored.push({ label: set.labels[start + row]!, scores }));
    start = end;
  }
  return { ...processBenchF1(scored, options.threshold), loss: steps > 0 ? lossTotal / steps : Number.NaN, items: scored.length, skipped: set.skipped };
}
