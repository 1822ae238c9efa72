import { InvalidInputError } from '@reward-lens/core';

/** One ProcessBench item: a solution split into steps and the 0-based index of its earliest erroneous step (−1: none). */
export interface ProcessBenchItem {
  id: string;
  generator?: string;
  problem: string;
  steps: string[];
  finalAnswerCorrect?: boolean;
  /** 0-based index of the earliest erroneous step, or −1 when every step is correct. */
  label: number;
}

/** An item, or why a record could not be read (the run goes on past it). */
export type ProcessBenchRecord = { item: ProcessBenchItem; location: string } | { error: InvalidInputError; location: string };

/**
 * Reads one record of the ProcessBench format (`id`, `generator`, `problem`, `steps[]`,
 * `final_answer_correct`, `label`), checking every field; throws `InvalidInputError` naming the
 * field and `location` (e.g. `line 7`).
 */
export function parseProcessBenchItem(value: unknown, location: string): ProcessBenchItem {
  const fail = (message: string) => new InvalidInputError(message, { location });
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw fail('a ProcessBench record must be a JSON object');
  const record = value as Record<string, unknown>;
  const id = typeof record.id === 'string' || typeof record.id === 'number' ? String(record.id) : undefined;
  if (id === undefined) throw fail('"id" must be a string or a number');
  if (typeof record.problem !== 'string') throw fail('"problem" must be a string');
  if (!Array.isArray(record.steps) || record.steps.length === 0 || !record.steps.every((step) => typeof step === 'string')) {
    throw fail('"steps" must be a non-empty array of strings');
  }
  const label = record.label;
  if (typeof label !== 'number' || !Number.isInteger(label) || label < -1 || label >= record.steps.length) {
    throw fail(`"label" must be -1 or a step index below ${record.steps.length}, got ${JSON.stringify(label)}`);
  }
  const item: ProcessBenchItem = { id, problem: record.problem, steps: record.steps as string[], label };
  if (typeof record.generator === 'string') item.generator = record.generator;
  if (typeof record.final_answer_correct === 'boolean') item.finalAnswerCorrect = record.final_answer_correct;
  return item;
}

/** Parses a record, turning a bad one into an error record so a batch goes on. */
export function processBenchRecord(value: unknown, location: string): ProcessBenchRecord {
  try {
    return { item: parseProcessBenchItem(value, location), location };
  } catch (error) {
    if (InvalidInputError.isInstance(error)) return { error, location };
    throw error;
  }
}

/**
 * Records from lines of ProcessBench JSONL as they arrive (blank lines skipped): a line that is not
 * JSON or not a valid record becomes an error record naming its line.
 */
export async function* processBenchFromJsonLines(lines: AsyncIterable<string> | Iterable<string>): AsyncGenerator<ProcessBenchRecord> {
  let lineNumber = 0;
  for await (const line of lines) {
    lineNumber++;
    const text = lineNumber === 1 ? line.replace(/^\uFEFF/, '') : line;
    if (text.trim() === '') continue;
    const location = `line ${lineNumber}`;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (error) {
      yield { error: new InvalidInputError(`invalid JSON: ${error instanceof Error ? error.message : String(error)}`, { location }), location };
      continue;
    }
    yield processBenchRecord(value, location);
  }
}

/** Records of a ProcessBench JSON array (as the published `gsm8k.json`), each located by index. */
export function* processBenchFromArray(values: readonly unknown[]): Generator<ProcessBenchRecord> {
  for (const [index, value] of values.entries()) yield processBenchRecord(value, `item ${index}`);
}
