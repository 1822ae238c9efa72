import { InvalidInputError } from '@reward-lens/core';
import { describeRecordLabel, openJsonRecords } from '@reward-lens/core/node';
import type { CliStreams } from '../cli-streams.js';
import { UsageError } from '../usage-error.js';
import { writeText } from '../write-text.js';

/**
 * One record of the JSON or JSONL input of `rerank`, `search` and `label`: a parsed object with
 * its line (JSONL) or index (JSON array) and its text, or what was wrong with its line.
 */
export type JsonRecord =
  | { label: string; text: string; value: Record<string, unknown> }
  | { label: string; text: string; error: { code: string; message: string } };

/**
 * The records of a file or of stdin, streamed as loaders' `openJsonRecords` reads them: JSONL (a
 * bad line is an error record and the run goes on), or one JSON document (an object, or an array
 * of objects), told apart by content as `score` does. A record that is not an object is an error.
 */
export async function* readJsonRecords(path: string | undefined, stdin: NodeJS.ReadableStream, usage: string): AsyncGenerator<JsonRecord> {
  const source = await openJsonRecords(path ?? stdin);
  if (source.format === 'empty' && path === undefined) throw new UsageError('no input: give --file <path>, or JSON/JSONL on stdin', usage);
  for await (const record of source.records) {
    const label = describeRecordLabel(record.label);
    if ('error' in record) yield { label, text: record.text, error: record.error };
    else if (typeof record.value !== 'object' || record.value === null || Array.isArray(record.value))
      yield { label, text: record.text, error: { code: InvalidInputError.code, message: 'expected a JSON object' } };
    else yield { label, text: record.text, value: record.value as Record<string, unknown> };
  }
}

/** `{"line": 3, ...}` or `{"index": 3, ...}` for a record label, as `score` labels its JSON output. */
export function labelFields(label: string): Record<string, number | string> {
  const match = /^(line|index) (\d+)$/.exec(label);
  return match ? { [match[1]!]: Number(match[2]) } : { source: label };
}

/** A bad record: a JSON line of its own with `--json` (so the output keeps one line per record), else a line on stderr. */
export async function writeRecordError(streams: CliStreams, label: string, error: { code: string; message: string }, json: boolean): Promise<void> {
  if (json) await writeText(streams.stdout, `${JSON.stringify({ ...labelFields(label), error })}\n`);
  else await writeText(streams.stderr, `reward-lens: ${label}: ${error.code}: ${error.message}\n`);
}
