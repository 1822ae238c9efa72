import { checkScoringRecord, InvalidInputError, type ScoringRecord } from '@reward-lens/core';

/** A record as the CLI reads it (core's `checkScoringRecord`): always an object, so its problem can be shown beside its scores. */
export type RecordInput = ScoringRecord;

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

function invalid(label: RecordLabel, message: string): InputRecord {
  return { label, error: { code: InvalidInputError.code, message } };
}

/** A parsed value (an element of a JSON array) as a record. */
export function recordFromValue(value: unknown, label: RecordLabel): InputRecord {
  const checked = checkScoringRecord(value);
  return 'record' in checked ? { label, input: checked.record } : invalid(label, checked.error);
}

/**
 * A single record (a JSON file holding one object): a bad shape stops the run, since there is
 * nothing else to go on with. `location` names the file in the message.
 */
export function singleRecordFromValue(value: unknown, location: string): RecordInput {
  const checked = checkScoringRecord(value);
  if ('error' in checked) throw new InvalidInputError(checked.error, { location });
  return checked.record;
}
