import type { RecordError, RecordLabel } from './input-record.js';
import type { RecordOutcome } from './score-batch.js';

/**
 * One output line for one record: the label first (`line` for JSONL input, `index` for a JSON
 * array), then the scores or the error. Non-finite scores (a step cut off by truncation) become
 * `null`, as JSON has no NaN.
 */
export function formatRecordJson(label: RecordLabel, outcome: RecordOutcome): string {
  const head = { ...(label.line !== undefined ? { line: label.line } : {}), ...(label.index !== undefined ? { index: label.index } : {}) };
  if ('error' in outcome) return `${JSON.stringify({ ...head, error: errorFields(outcome.error) })}\n`;
  return `${JSON.stringify({ ...head, ...outcome.scored })}\n`;
}

function errorFields(error: RecordError): RecordError {
  return { code: error.code, message: error.message };
}
