import { InvalidInputError } from '@reward-lens/core';

/** A record as the CLI reads it: always an object, so its problem can be shown beside its scores. */
export type RecordInput = { problem: string; solution: string } | { problem: string; steps: string[] };

/** Where a record came from: its JSONL line (1-based) or its index in a JSON array (0-based). */
export interface RecordLabel {
  line?: number;
  index?: number;
}

/** A failure that belongs to one record; the run goes on and reports it in that record's place. */
export interface RecordError {
  code: string;
  message: string;
}

/** One record of a multi-record input: ready to score, or already known to be bad. */
export type InputRecord = { label: RecordLabel; input: RecordInput } | { label: RecordLabel; error: RecordError };

const expectedShape = 'expected an object {"problem": string, "solution": string} or {"problem": string, "steps": string[]}';

/**
 * Checks one record's shape: the record, or what was wrong with it in words. Only the shape is
 * checked here; an empty solution or an over-long sequence is core's to find when it scores.
 * Fields other than these are ignored, so records may carry ids or labels of their own.
 */
export function toRecordInput(value: unknown): RecordInput | { shapeError: string } {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return { shapeError: `${expectedShape}, got ${describe(value)}` };
  const record = value as Record<string, unknown>;
  if (typeof record.problem !== 'string') return { shapeError: `"problem" must be a string, got ${describe(record.problem)}` };
  const hasSolution = record.solution !== undefined;
  const hasSteps = record.steps !== undefined;
  if (hasSolution && hasSteps) return { shapeError: 'give either "solution" or "steps", not both' };
  if (hasSteps) {
    if (!Array.isArray(record.steps) || !record.steps.every((step) => typeof step === 'string')) {
      return { shapeError: '"steps" must be an array of strings' };
    }
    return { problem: record.problem, steps: record.steps as string[] };
  }
  if (typeof record.solution !== 'string') return { shapeError: `"solution" must be a string, got ${describe(record.solution)}` };
  return { problem: record.problem, solution: record.solution };
}

function isRecordInput(value: RecordInput | { shapeError: string }): value is RecordInput {
  return !('shapeError' in value);
}

function describe(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'number' && !Number.isFinite(value)) return `number ${value} (JSON has no such number: a literal out of range, like 1e999)`;
  return typeof value === 'object' ? 'an object' : `${typeof value} ${JSON.stringify(value)}`.slice(0, 60);
}

function invalid(label: RecordLabel, message: string): InputRecord {
  return { label, error: { code: InvalidInputError.code, message } };
}

/** A parsed value (an element of a JSON array) as a record. */
export function recordFromValue(value: unknown, label: RecordLabel): InputRecord {
  const checked = toRecordInput(value);
  return isRecordInput(checked) ? { label, input: checked } : invalid(label, checked.shapeError);
}

/**
 * A single record (a JSON file holding one object): a bad shape stops the run, since there is
 * nothing else to go on with. `location` names the file in the message.
 */
export function singleRecordFromValue(value: unknown, location: string): RecordInput {
  const checked = toRecordInput(value);
  if (!isRecordInput(checked)) throw new InvalidInputError(checked.shapeError, { location });
  return checked;
}
