import { InvalidInputError } from '@reward-lens/core';
import type { MatchedPair, OrganismItem } from './organism.js';

/** ProcessBench's record: `label` is the 0-based first erroneous step, -1 when every step is right. */
export interface ProcessBenchRecord {
  id: string;
  generator: string;
  problem: string;
  steps: string[];
  label: number;
  final_answer_correct: boolean;
}

/** TRL's stepwise-supervision record (what `PRMTrainer` reads): one boolean per step, true for a good step. */
export interface TrlPrmRecord {
  prompt: string;
  completions: string[];
  labels: boolean[];
}

/**
 * How per-step booleans are set: `prefix` (the default) marks a step good when no step up to and
 * including it is wrong, the convention of Math-Shepherd's labels and of ProcessBench's first
 * error; `step` marks each step by its own verdict (a step after an error can be right on the
 * solution's own quantities).
 */
export type TrlLabelRule = 'prefix' | 'step';

/** Marks a record as one half of a matched pair. */
export interface PairFields {
  pair_id: string;
  pair_role: 'clean' | 'flawed';
  /** The flawed solution's first error, where the two solutions first differ. */
  pair_step: number;
  error_kind: string;
}

export const organismGeneratorName = 'reward-lens-organism';

export function toProcessBench(item: OrganismItem, generator = organismGeneratorName): ProcessBenchRecord {
  return {
    id: item.id,
    generator,
    problem: item.problem,
    steps: [...item.steps],
    label: item.firstErrorStep,
    final_answer_correct: item.finalAnswerCorrect,
  };
}

export function toTrl(item: OrganismItem, rule: TrlLabelRule = 'prefix'): TrlPrmRecord {
  return {
    prompt: item.problem,
    completions: [...item.steps],
    labels: item.verdicts.map((verdict, index) => (rule === 'step' ? verdict === 'correct' : item.firstErrorStep === -1 || index < item.firstErrorStep)),
  };
}

/** The two records of a pair (clean first), each with `PairFields`. */
export function pairRecords<T>(pair: MatchedPair, write: (item: OrganismItem) => T): (T & PairFields)[] {
  return (['clean', 'flawed'] as const).map((role) => ({
    ...write(pair[role]),
    pair_id: pair.id,
    pair_role: role,
    pair_step: pair.step,
    error_kind: pair.errorKind,
  }));
}

/** The first step a `prefix` label marks bad (-1 when none): ProcessBench's label. */
export function firstErrorOfLabels(labels: readonly boolean[]): number {
  return labels.indexOf(false);
}

/** Checks a parsed JSON value is a ProcessBench record; a wrong shape is an `InvalidInputError` at `location`. */
export function readProcessBenchRecord(value: unknown, location = 'record'): ProcessBenchRecord {
  const record = asObject(value, location);
  const steps = stringArray(record.steps, `${location}: steps`);
  const label = record.label;
  if (!Number.isInteger(label) || (label as number) < -1 || (label as number) >= steps.length) {
    throw new InvalidInputError(`label must be -1 or a step index below ${steps.length}, got ${JSON.stringify(label)}`, { location });
  }
  if (typeof record.final_answer_correct !== 'boolean') throw new InvalidInputError('final_answer_correct must be a boolean', { location });
  return {
    id: String(record.id ?? ''),
    generator: String(record.generator ?? ''),
    problem: string(record.problem, `${location}: problem`),
    steps,
    label: label as number,
    final_answer_correct: record.final_answer_correct,
  };
}

/** Checks a parsed JSON value is a TRL stepwise-supervision record. */
export function readTrlRecord(value: unknown, location = 'record'): TrlPrmRecord {
  const record = asObject(value, location);
  const completions = stringArray(record.completions, `${location}: completions`);
  const labels = record.labels;
  if (!Array.isArray(labels) || labels.length !== completions.length || labels.some((label) => typeof label !== 'boolean')) {
    throw new InvalidInputError(`labels must be ${completions.length} booleans, one per completion`, { location });
  }
  return { prompt: string(record.prompt, `${location}: prompt`), completions, labels: labels as boolean[] };
}

function asObject(value: unknown, location: string): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new InvalidInputError('must be a JSON object', { location });
  return value as Record<string, unknown>;
}

function string(value: unknown, location: string): string {
  if (typeof value !== 'string') throw new InvalidInputError('must be a string', { location });
  return value;
}

function stringArray(value: unknown, location: string): string[] {
  if (!Array.isArray(value) || value.some((entry) => typeof entry !== 'string')) throw new InvalidInputError('must be an array of strings', { location });
  return value as string[];
}
