import { InvalidInputError } from '@reward-lens/core';

/**
 * One solution with a label per step: the unit the trainer learns from. `stepLabels[k]` is the
 * probability that step k is correct (1 or 0 for hard labels, anything between for soft ones,
 * such as Monte-Carlo estimates); NaN leaves a step out of the loss.
 */
export interface StepRecord {
  id?: string;
  problem: string;
  steps: string[];
  stepLabels: number[];
  /**
   * Token-level labels, where the data knows them (the organism does): per step, how many of its
   * leading characters a correct solution shares: the step's length for a right step, where it
   * goes wrong for the first wrong one, 0 after it. With them the head is also trained at every
   * token of the solution, on whether the text so far is still right (see `TrainingExample`).
   */
  correctPrefix?: number[];
}

/** How step labels become the loss's targets. */
export interface LabelPolicy {
  /**
   * Count steps only up to the first error (inclusive), as Math-Shepherd and PRM800K train:
   * later steps' labels are left out of the loss. Default true.
   */
  untilFirstError?: boolean;
}

/** Checks a record's shape, naming where it came from; returns it. */
export function checkStepRecord(record: StepRecord, location: string): StepRecord {
  const fail = (message: string): never => {
    throw new InvalidInputError(message, { location });
  };
  if (typeof record.problem !== 'string') fail('"problem" must be a string');
  if (!Array.isArray(record.steps) || record.steps.length === 0) fail('"steps" must be a non-empty list');
  if (record.steps.some((step) => typeof step !== 'string' || step.trim() === '')) fail('every step must be a non-empty string');
  if (!Array.isArray(record.stepLabels) || record.stepLabels.length !== record.steps.length) {
    fail(
      `"stepLabels" must hold one label per step (${record.steps.length}), got ${Array.isArray(record.stepLabels) ? record.stepLabels.length : typeof record.stepLabels}`,
    );
  }
  if (record.stepLabels.some((label) => typeof label !== 'number' || (!Number.isNaN(label) && (label < 0 || label > 1)))) {
    fail('every step label must be a number in [0, 1] (or NaN to leave the step out)');
  }
  if (record.correctPrefix !== undefined) {
    const prefix = record.correctPrefix;
    if (!Array.isArray(prefix) || prefix.length !== record.steps.length) fail(`"correctPrefix" must hold one length per step (${record.steps.length})`);
    prefix.forEach((length, step) => {
      if (!Number.isInteger(length) || length < 0 || length > record.steps[step]!.length) {
        fail(`"correctPrefix" of step ${step} must be a whole number of characters from 0 to the step's ${record.steps[step]!.length}, got ${length}`);
      }
    });
    if (record.stepLabels.some(Number.isNaN)) fail('"correctPrefix" needs a label on every step');
  }
  return record;
}

/** The first step whose label says it is wrong (below 1/2), or -1: ProcessBench's `label`. */
export function firstErrorStep(record: StepRecord): number {
  return record.stepLabels.findIndex((label) => label < 0.5);
}

/** The targets the loss sees: NaN after the first error when the policy says so. */
export function trainingTargets(record: StepRecord, policy: LabelPolicy): number[] {
  const cut = (policy.untilFirstError ?? true) ? firstErrorStep(record) : -1;
  return record.stepLabels.map((label, step) => (cut >= 0 && step > cut ? Number.NaN : label));
}
