import { InvalidInputError } from '@reward-lens/core';
import type { LabelInput, StepLabels } from './label-types.js';

/** A row of TRL's stepwise-supervision PRM dataset (as `trl-lib/math_shepherd`): the problem, the steps, a label per step. */
export interface TrlPrmRecord {
  prompt: string;
  completions: string[];
  labels: boolean[] | number[];
}

/**
 * The labelled steps as a TRL row: `hard` labels as booleans, `soft` as v_k. Only labelled steps
 * are kept (binary search labels up to the first error), and `keptSteps` can cut further
 * (consensus filtering's `prefix` mode).
 */
export function toTrlRecord(input: LabelInput, labels: StepLabels, kind: 'hard' | 'soft', keptSteps?: number): TrlPrmRecord {
  if (kind === 'soft' && labels.mode !== 'sweep')
    throw new InvalidInputError('soft labels need a full sweep: binary search computes v_k at only a few prefixes');
  const count = Math.min(labels.hard.length, keptSteps ?? labels.hard.length);
  return {
    prompt: input.problem,
    completions: input.steps.slice(0, count),
    labels: kind === 'hard' ? labels.hard.slice(0, count) : labels.soft.slice(0, count),
  };
}
