import { RewardLensError, type ProcessRM } from '@reward-lens/core';
import { trainingTargets, type LabelPolicy, type StepRecord } from './step-record.js';

/** A record laid out as the model reads it: token ids, each step's read position and its target (NaN: not in the loss). */
export interface TrainingExample {
  record: StepRecord;
  inputIds: Int32Array;
  readPositions: number[];
  targets: number[];
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
  return { record, inputIds: pair.inputIds, readPositions: pair.readPositions, targets };
}
