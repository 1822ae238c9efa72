import { open } from 'node:fs/promises';
import { InvalidInputError } from '@reward-lens/core';
import { detectInputFormat } from '../score/detect-input-format.js';
import { readNumberedLines } from '../score/read-numbered-lines.js';
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

function invalid(label: string, text: string, message: string): JsonRecord {
  return { label, text, error: { code: InvalidInputError.code, message } };
}

function asRecord(label: string, text: string, value: unknown): JsonRecord {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return invalid(label, text, 'expected a JSON object');
  return { label, text, value: value as Record<string, unknown> };
}

/**
 * The records of a file or of stdin, streamed: JSONL (one object per line; a bad line is an error
 * record and the run goes on), or one JSON document (an object, or an array of objects), told
 * apart by content as `score` does.
 */
export async function* readJsonRecords(path: string | undefined, stdin: NodeJS.ReadableStream, usage: string): AsyncGenerator<JsonRecord> {
  let stream: NodeJS.ReadableStream = stdin;
  const location = path ?? 'stdin';
  if (path !== undefined) {
    try {
      stream = (await open(path, 'r')).createReadStream({ encoding: 'utf8' });
    } catch (error) {
      throw new InvalidInputError(`cannot read the file: ${error instanceof Error ? error.message : String(error)}`, { location: path, cause: error });
    }
  }
  const detected = await detectInputFormat(readNumberedLines(stream), location);
  if (detected.format === 'empty') {
    if (path === undefined) throw new UsageError('no input: give --file <path>, or JSON/JSONL on stdin', usage);
    return;
  }
  if (detected.format === 'json') {
    const values = Array.isArray(detected.value) ? detected.value : [detected.value];
    for (const [index, value] of values.entries()) yield asRecord(Array.isArray(detected.value) ? `index ${index}` : location, JSON.stringify(value), value);
    return;
  }
  for await (const line of detected.lines) {
    if (line.text.trim() === '') continue;
    const label = `line ${line.lineNumber}`;
    let value: unknown;
    try {
      value = JSON.parse(line.text);
    } catch (error) {
      yield invalid(label, line.text, `invalid JSON: ${error instanceof Error ? error.message : String(error)}`);
      continue;
    }
    yield asRecord(label, line.text, value);
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
