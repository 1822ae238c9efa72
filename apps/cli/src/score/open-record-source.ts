import { type JsonRecord, openJsonRecords } from '@reward-lens/core/node';
import { UsageError } from '../usage-error.js';
import { recordFromValue, singleRecordFromValue, type InputRecord, type RecordInput } from './input-record.js';
import type { InputSpec } from './input-spec.js';

/**
 * What there is to score: one record (flags, or a JSON file holding one object), whose failure
 * stops the run; or many (a JSON array, JSONL), where a bad record becomes an error record.
 */
export type RecordSource = { kind: 'single'; input: RecordInput } | { kind: 'many'; format: 'json' | 'jsonl'; records: AsyncIterable<InputRecord> };

async function* inputRecords(records: AsyncIterable<JsonRecord>): AsyncGenerator<InputRecord> {
  for await (const record of records) {
    const label = 'source' in record.label ? {} : record.label;
    yield 'error' in record ? { label, error: record.error } : recordFromValue(record.value, label);
  }
}

/**
 * Opens the input the command line named, as loaders' `openJsonRecords` reads files of records
 * (`.json` whole, `.jsonl` streamed, anything else told apart by content). `usage` goes with the
 * error when stdin was read only because it is not a terminal and was empty.
 */
export async function openRecordSource(spec: InputSpec, stdin: NodeJS.ReadableStream, usage: string): Promise<RecordSource> {
  if (spec.kind === 'flags') return { kind: 'single', input: spec.record };
  const location = spec.kind === 'stdin' ? 'stdin' : spec.path;
  const source = await openJsonRecords(spec.kind === 'stdin' ? stdin : spec.path, location);
  if (source.format === 'document') return { kind: 'single', input: singleRecordFromValue(source.value, location) };
  // Read only because stdin is not a terminal: an empty stdin means the user gave no input at all.
  if (source.format === 'empty' && spec.kind === 'stdin' && !spec.explicit)
    throw new UsageError('no input: give --problem with --solution or --step, --file <path>, or JSON/JSONL on stdin', usage);
  return { kind: 'many', format: source.format === 'array' ? 'json' : 'jsonl', records: inputRecords(source.records) };
}
