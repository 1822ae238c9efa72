import { RewardLensError, type ProcessRM } from '@reward-lens/core';
import { trainingTargets, type LabelPolicy, type StepRecord } from './step-record.js';

/** A record laid out as the model reads it: token ids, each step's read position and its target (NaN: not in the loss). */
export interface TrainingExample {
  record: StepRecord;
  inputIds: Int32Array;
  readPositions: number[];
  targets: number[];
  /**
   * Tokens `[start, end)` are what a correct solver writes: the steps up to the last one known good
   * before the first step labelled wrong (a label ≥ 0.5, or a later step's, since a good step has a
   * good prefix), with their separators. The auxiliary next-token loss predicts only these: the
   * problem is given, not written, and a wrong step is not worth imitating.
   */
  correctText: readonly [number, number];
}

/** The last step known good before the first step labelled wrong (labels below 0.5), or -1. */
export function lastKnownGoodStep(labels: readonly number[]): number {
  const firstWrong = labels.findIndex((label) => label < 0.5);
  const end = firstWrong === -1 ? labels.length : firstWrong;
  for (let step = end - 1; step >= 0; step--) if (labels[step]! >= 0.5) return step;
  return -1;
}

/**
 * Tokenizes a record with the PRM's recipe (the same layout scoring uses, so a trained model
 * is read exactly as it was trained). Returns why it was skipped instead when it cannot be
 * used: too long for the model, or no step with a target.
 */
export function toTrainingExample(prm: ProcessRM, record: StepRecord, policy: LabelPolicy): TrainingExample | { skipped: string } {
  let pair: ReturnType<ProcessRM['tokenize']>;
  try {
    pair = prm.tokenize({ problem: record.problem, steps: record.steps });
  } catch (error) {
    if (RewardLensError.isInstance(error)) return { skipped: `${error.code}: ${error.message}` };
    throw error;
  }
  if (pair.steps.length !== record.steps.length) return { skipped: `the layout found ${pair.steps.length} steps where the record has ${record.steps.length}` };
  const targets = trainingTargets(record, policy);
  if (targets.every(Number.isNaN)) return { skipped: 'no step has a label' };
  const lastGood = lastKnownGoodStep(record.stepLabels);
  const start = pair.steps[0]!.tokenSpan[0];
  const end = lastGood >= 0 ? Math.max(pair.readPositions[lastGood]!, pair.steps[lastGood]!.tokenSpan[1] - 1) + 1 : start;
  return { record, inputIds: pair.inputIds, readPositions: pair.readPositions, targets, correctText: [Math.max(1, start), end] };
}
