import { InvalidInputError } from '@reward-lens/core';
import { checkStepRecord, type StepRecord } from './step-record.js';

/** How a ProcessBench record's steps after its labelled first error are labelled. */
export type AfterErrorLabel = 'ignore' | 'negative';

export interface ParseOptions {
  /**
   * ProcessBench gives only the first error: steps after it are left out of the loss
   * (`'ignore'`, default) or labelled wrong (`'negative'`).
   */
  afterError?: AfterErrorLabel;
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * A ProcessBench record (`id, problem, steps, label, final_answer_correct`): steps before
 * `label` are correct, step `label` is wrong, later steps are left out or wrong; `label = -1`
 * marks every step correct.
 */
export function fromProcessBench(value: Record<string, unknown>, location: string, options: ParseOptions = {}): StepRecord {
  const steps = value.steps;
  const label = value.label;
  if (!Array.isArray(steps)) throw new InvalidInputError('"steps" must be a list', { location });
  if (!Number.isInteger(label) || (label as number) < -1 || (label as number) >= steps.length) {
    throw new InvalidInputError(`"label" must be -1 or a step index below ${steps.length}, got ${JSON.stringify(label)}`, { location });
  }
  const first = label as number;
  const after = options.afterError === 'negative' ? 0 : Number.NaN;
  const stepLabels = steps.map((_, step) => (first < 0 || step < first ? 1 : step === first ? 0 : after));
  return checkStepRecord(
    { ...(value.id !== undefined ? { id: String(value.id) } : {}), problem: value.problem as string, steps: steps as string[], stepLabels },
    location,
  );
}

/** A TRL PRM record (`prompt, completions, labels`), labels booleans or probabilities. */
export function fromTrl(value: Record<string, unknown>, location: string): StepRecord {
  const { labels } = value;
  if (!Array.isArray(labels)) throw new InvalidInputError('"labels" must be a list', { location });
  const stepLabels = labels.map((label) => (typeof label === 'boolean' ? (label ? 1 : 0) : (label as number)));
  return checkStepRecord(
    { ...(value.id !== undefined ? { id: String(value.id) } : {}), problem: value.prompt as string, steps: value.completions as string[], stepLabels },
    location,
  );
}

/** A record in any of the formats: ProcessBench, TRL, or reward-lens' own (`problem, steps, stepLabels`). */
export function parseStepRecord(value: unknown, location: string, options: ParseOptions = {}): StepRecord {
  if (!isObject(value)) throw new InvalidInputError('a record must be a JSON object', { location });
  if ('completions' in value && 'labels' in value) return fromTrl(value, location);
  if ('steps' in value && 'label' in value) return fromProcessBench(value, location, options);
  if ('steps' in value && 'stepLabels' in value) {
    const labels = (value.stepLabels as unknown[]).map((label) => (label === null ? Number.NaN : label));
    return checkStepRecord(
      {
        ...(value.id !== undefined ? { id: String(value.id) } : {}),
        problem: value.problem as string,
        steps: value.steps as string[],
        stepLabels: labels as number[],
      },
      location,
    );
  }
  throw new InvalidInputError('not a ProcessBench (steps, label), TRL (prompt, completions, labels) or step-labelled (steps, stepLabels) record', {
    location,
  });
}

/**
 * The records of a JSONL file's text (one JSON object per line), or of a JSON array (as
 * ProcessBench's published `gsm8k.json`). `name` locates errors (`file:line`).
 */
export function parseRecordsText(text: string, name: string, options: ParseOptions = {}): StepRecord[] {
  const trimmed = text.trimStart();
  if (trimmed.startsWith('[')) {
    let values: unknown;
    try {
      values = JSON.parse(text);
    } catch (error) {
      throw new InvalidInputError(`not valid JSON (${(error as Error).message})`, { location: name, cause: error });
    }
    return (values as unknown[]).map((value, index) => parseStepRecord(value, `${name}[${index}]`, options));
  }
  const records: StepRecord[] = [];
  text.split('\n').forEach((line, index) => {
    if (line.trim() === '') return;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (error) {
      throw new InvalidInputError(`not valid JSON (${(error as Error).message})`, { location: `${name}:${index + 1}`, cause: error });
    }
    records.push(parseStepRecord(value, `${name}:${index + 1}`, options));
  });
  return records;
}
