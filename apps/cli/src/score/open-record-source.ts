import { type FileHandle, open, readFile } from 'node:fs/promises';
import { extname } from 'node:path';
import { InvalidInputError } from '@reward-lens/core';
import { UsageError } from '../usage-error.js';
import { detectInputFormat } from './detect-input-format.js';
import { recordFromJsonLine, recordFromValue, singleRecordFromValue, type InputRecord, type RecordInput } from './input-record.js';
import type { InputSpec } from './input-spec.js';
import { readNumberedLines, type NumberedLine } from './read-numbered-lines.js';
import { firstInvalidUtf8Byte } from './utf8-validation.js';

/**
 * What there is to score: one record (flags, or a JSON file holding one object), whose failure
 * stops the run; or many (a JSON array, JSONL), where a bad record becomes an error record.
 */
export type RecordSource = { kind: 'single'; input: RecordInput } | { kind: 'many'; format: 'json' | 'jsonl'; records: AsyncIterable<InputRecord> };

async function* recordsFromLines(lines: AsyncIterable<NumberedLine>): AsyncGenerator<InputRecord> {
  for await (const line of lines) {
    if (line.text.trim() !== '') yield recordFromJsonLine(line);
  }
}

async function* recordsFromArray(values: readonly unknown[]): AsyncGenerator<InputRecord> {
  for (const [index, value] of values.entries()) yield recordFromValue(value, { index });
}

function fromJsonDocument(value: unknown, location: string): RecordSource {
  if (Array.isArray(value)) return { kind: 'many', format: 'json', records: recordsFromArray(value) };
  return { kind: 'single', input: singleRecordFromValue(value, location) };
}

function cannotRead(path: string, error: unknown): InvalidInputError {
  const reason = error instanceof Error ? error.message : String(error);
  return new InvalidInputError(`cannot read the file: ${reason}`, { location: path, cause: error });
}

async function openFile(path: string): Promise<NodeJS.ReadableStream> {
  let handle: FileHandle;
  try {
    // Opened before streaming, so a missing file is one clear error rather than a failed read later.
    handle = await open(path, 'r');
  } catch (error) {
    throw cannotRead(path, error);
  }
  // A directory opens fine and fails only on the first read; a pipe or a terminal is fine to stream.
  const stats = await handle.stat();
  if (stats.isDirectory()) {
    await handle.close();
    throw new InvalidInputError('is a directory, not a file of records', { location: path });
  }
  return handle.createReadStream();
}

/** The lines of a file, with a read that fails midway (EIO, a vanished mount) reported as the file's error. */
async function* linesOfFile(stream: NodeJS.ReadableStream, path: string): AsyncGenerator<NumberedLine> {
  try {
    yield* readNumberedLines(stream);
  } catch (error) {
    if (InvalidInputError.isInstance(error)) throw error;
    throw cannotRead(path, error);
  }
}

async function* noRecords(): AsyncGenerator<InputRecord> {}

/** `emptyError` is thrown when the input holds nothing but blank lines; without it, that is zero records. */
async function fromDetectedLines(lines: AsyncIterable<NumberedLine>, location: string, emptyError?: UsageError): Promise<RecordSource> {
  const detected = await detectInputFormat(lines, location);
  switch (detected.format) {
    case 'json':
      return fromJsonDocument(detected.value, location);
    case 'jsonl':
      return { kind: 'many', format: 'jsonl', records: recordsFromLines(detected.lines) };
    case 'empty':
      if (emptyError) throw emptyError;
      return { kind: 'many', format: 'jsonl', records: noRecords() };
  }
}

/**
 * Opens the input the command line named. A `.json` file is read whole, a `.jsonl` (or `.ndjson`)
 * file is streamed, and stdin or any other file is told apart by content (see detectInputFormat).
 * `usage` goes with the error when stdin was read only because it is not a terminal and was empty.
 */
export async function openRecordSource(spec: InputSpec, stdin: NodeJS.ReadableStream, usage: string): Promise<RecordSource> {
  if (spec.kind === 'flags') return { kind: 'single', input: spec.record };
  if (spec.kind === 'stdin') {
    // Read only because stdin is not a terminal: an empty stdin means the user gave no input at all.
    const emptyError = spec.explicit
      ? undefined
      : new UsageError('no input: give --problem with --solution or --step, --file <path>, or JSON/JSONL on stdin', usage);
    return fromDetectedLines(readNumberedLines(stdin), 'stdin', emptyError);
  }
  const extension = extname(spec.path).toLowerCase();
  if (extension === '.json') {
    let bytes: Buffer;
    try {
      bytes = await readFile(spec.path);
    } catch (error) {
      throw cannotRead(spec.path, error);
    }
    const bad = firstInvalidUtf8Byte(bytes);
    if (bad >= 0) throw new InvalidInputError(`the file is not valid UTF-8 (byte ${bad + 1})`, { location: spec.path });
    const text = bytes.toString('utf8');
    let value: unknown;
    try {
      value = JSON.parse(text.replace(/^\uFEFF/, ''));
    } catch (error) {
      throw new InvalidInputError(`invalid JSON: ${error instanceof Error ? error.message : String(error)}`, { location: spec.path });
    }
    return fromJsonDocument(value, spec.path);
  }
  const lines = linesOfFile(await openFile(spec.path), spec.path);
  if (extension === '.jsonl' || extension === '.ndjson') return { kind: 'many', format: 'jsonl', records: recordsFromLines(lines) };
  return fromDetectedLines(lines, spec.path, undefined);
}
