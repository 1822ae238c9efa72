import { type FileHandle, open, readFile } from 'node:fs/promises';
import { extname } from 'node:path';
import { InvalidInputError } from '@reward-lens/spec';
import { detectInputFormat } from './detect-input-format.js';
import { type NumberedLine, readNumberedLines } from './read-numbered-lines.js';
import { firstInvalidUtf8Byte } from './utf8-validation.js';

/** Where a record came from: its JSONL line (1-based), its index in a JSON array (0-based), or the file that is one record. */
export type JsonRecordLabel = { line: number } | { index: number } | { source: string };

/** A record failure that belongs to one record: the run reports it in that record's place and goes on. */
export interface JsonRecordError {
  code: string;
  message: string;
}

/** One record of a file of records: its parsed value, or what was wrong with its line; `text` is its JSON as read. */
export type JsonRecord = { label: JsonRecordLabel; text: string; value: unknown } | { label: JsonRecordLabel; text: string; error: JsonRecordError };

/**
 * A file (or stream) of records, opened: one JSON document that is a single value (`document`,
 * whose `value` is that value), an array of records (`array`), JSON Lines (`jsonl`), or nothing but
 * blank lines (`empty`). `records` yields every record, a bad line as an error record.
 */
export type JsonRecordSource =
  | { format: 'document'; value: unknown; records: AsyncIterable<JsonRecord> }
  | { format: 'array' | 'jsonl' | 'empty'; records: AsyncIterable<JsonRecord> };

const reason = (error: unknown) => (error instanceof Error ? error.message : String(error));

function cannotRead(path: string, error: unknown): InvalidInputError {
  return new InvalidInputError(`cannot read the file: ${reason(error)}`, { location: path, cause: error });
}

function recordFromLine(line: NumberedLine): JsonRecord {
  const label = { line: line.lineNumber };
  const invalid = (message: string): JsonRecord => ({ label, text: line.text, error: { code: InvalidInputError.code, message } });
  if (line.invalidUtf8ByteOffset !== undefined) {
    return invalid(
      `the line is not valid UTF-8 (byte ${line.invalidUtf8ByteOffset + 1} of the line); it is not read rather than read with replaced characters`,
    );
  }
  try {
    return { label, text: line.text, value: JSON.parse(line.text) };
  } catch (error) {
    return invalid(`invalid JSON: ${reason(error)}`);
  }
}

async function* recordsFromLines(lines: AsyncIterable<NumberedLine>): AsyncGenerator<JsonRecord> {
  for await (const line of lines) if (line.text.trim() !== '') yield recordFromLine(line);
}

async function* recordsFromValues(values: readonly unknown[], label: (index: number) => JsonRecordLabel): AsyncGenerator<JsonRecord> {
  for (const [index, value] of values.entries()) yield { label: label(index), text: JSON.stringify(value) ?? String(value), value };
}

function fromDocument(value: unknown, location: string): JsonRecordSource {
  if (Array.isArray(value)) return { format: 'array', records: recordsFromValues(value, (index) => ({ index })) };
  return { format: 'document', value, records: recordsFromValues([value], () => ({ source: location })) };
}

async function openStream(path: string): Promise<NodeJS.ReadableStream> {
  let handle: FileHandle;
  try {
    // Opened before streaming, so a missing file is one clear error rather than a failed read later.
    handle = await open(path, 'r');
  } catch (error) {
    throw cannotRead(path, error);
  }
  // A directory opens fine and fails only on the first read; a pipe or a terminal is fine to stream.
  if ((await handle.stat()).isDirectory()) {
    await handle.close();
    throw new InvalidInputError('is a directory, not a file of records', { location: path });
  }
  return handle.createReadStream();
}

/** The lines of a file, with a read that fails midway (EIO, a vanished mount) reported as the file's error. */
async function* linesOf(stream: NodeJS.ReadableStream, path: string): AsyncGenerator<NumberedLine> {
  try {
    yield* readNumberedLines(stream);
  } catch (error) {
    if (InvalidInputError.isInstance(error)) throw error;
    throw cannotRead(path, error);
  }
}

async function readJsonFile(path: string): Promise<JsonRecordSource> {
  let bytes: Buffer;
  try {
    bytes = await readFile(path);
  } catch (error) {
    throw cannotRead(path, error);
  }
  const bad = firstInvalidUtf8Byte(bytes);
  if (bad >= 0) throw new InvalidInputError(`the file is not valid UTF-8 (byte ${bad + 1})`, { location: path });
  let value: unknown;
  try {
    value = JSON.parse(bytes.toString('utf8').replace(/^\uFEFF/, ''));
  } catch (error) {
    throw new InvalidInputError(`invalid JSON: ${reason(error)}`, { location: path });
  }
  return fromDocument(value, path);
}

/**
 * Opens a file of records by path, or a stream (stdin) with `location` naming it in errors. A
 * `.json` file is read whole, a `.jsonl` (or `.ndjson`) file is streamed, and a stream or any
 * other file is told apart by content (see `detectInputFormat`), reading no further than it must
 * so that JSONL streams. Lines are split on raw bytes: a line that is not valid UTF-8 becomes an
 * error record instead of being silently repaired. What cannot be read at all (a missing file, a
 * directory, a document that is neither JSON nor JSONL) is an `InvalidInputError` naming it.
 */
export async function openJsonRecords(
  input: string | NodeJS.ReadableStream,
  location = typeof input === 'string' ? input : 'stdin',
): Promise<JsonRecordSource> {
  if (typeof input === 'string') {
    const extension = extname(input).toLowerCase();
    if (extension === '.json') return readJsonFile(input);
    const lines = linesOf(await openStream(input), input);
    if (extension === '.jsonl' || extension === '.ndjson') return { format: 'jsonl', records: recordsFromLines(lines) };
    return detect(lines, location);
  }
  return detect(readNumberedLines(input), location);
}

async function detect(lines: AsyncIterable<NumberedLine>, location: string): Promise<JsonRecordSource> {
  const detected = await detectInputFormat(lines, location);
  if (detected.format === 'json') return fromDocument(detected.value, location);
  if (detected.format === 'jsonl') return { format: 'jsonl', records: recordsFromLines(detected.lines) };
  return { format: 'empty', records: recordsFromValues([], () => ({ source: location })) };
}

/** `line 3`, `index 3` or the file's name: a record's label as the CLI and logs write it. */
export function describeRecordLabel(label: JsonRecordLabel): string {
  return 'line' in label ? `line ${label.line}` : 'index' in label ? `index ${label.index}` : label.source;
}
