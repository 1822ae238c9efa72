import { InvalidInputError } from '@reward-lens/spec';
import type { NumberedLine } from './read-numbered-lines.js';

export type DetectedInput = { format: 'json'; value: unknown } | { format: 'jsonl'; lines: AsyncIterable<NumberedLine> } | { format: 'empty' };

function parses(text: string): { ok: true; value: unknown } | { ok: false; message: string } {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (error) {
    return { ok: false, message: error instanceof Error ? error.message : String(error) };
  }
}

function isObjectLine(text: string): boolean {
  const parsed = parses(text);
  return parsed.ok && typeof parsed.value === 'object' && parsed.value !== null && !Array.isArray(parsed.value);
}

async function* replayThenContinue(seen: readonly NumberedLine[], rest: AsyncIterator<NumberedLine>): AsyncGenerator<NumberedLine> {
  yield* seen;
  for (let next = await rest.next(); !next.done; next = await rest.next()) yield next.value;
}

/**
 * Tells JSON from JSONL by content, reading no further than it must so JSONL can still stream.
 *
 * The rule: when the first non-blank line is a whole JSON value by itself (and not an array), the
 * input is JSONL, even when it is a single line. Otherwise it is one JSON document (a pretty-printed
 * object, or an array of records), read whole. A document that does not parse but has some line
 * that is a JSON object on its own is JSONL whose first record is broken: it goes on as JSONL so
 * that only that line errors.
 */
export async function detectInputFormat(lines: AsyncIterable<NumberedLine>, location: string): Promise<DetectedInput> {
  const iterator = lines[Symbol.asyncIterator]();
  const seen: NumberedLine[] = [];
  let firstContent: NumberedLine | undefined;
  for (let next = await iterator.next(); !next.done; next = await iterator.next()) {
    seen.push(next.value);
    if (next.value.text.trim() !== '') {
      firstContent = next.value;
      break;
    }
  }
  if (firstContent === undefined) return { format: 'empty' };

  const first = parses(firstContent.text);
  if (first.ok && !Array.isArray(first.value)) return { format: 'jsonl', lines: replayThenContinue(seen, iterator) };

  for (let next = await iterator.next(); !next.done; next = await iterator.next()) seen.push(next.value);
  const whole = parses(seen.map((line) => line.text).join('\n'));
  if (whole.ok) {
    const broken = seen.find((line) => line.invalidUtf8ByteOffset !== undefined);
    if (broken)
      throw new InvalidInputError(`line ${broken.lineNumber} is not valid UTF-8 (byte ${broken.invalidUtf8ByteOffset! + 1} of the line)`, { location });
    return { format: 'json', value: whole.value };
  }
  if (seen.some((line) => isObjectLine(line.text))) return { format: 'jsonl', lines: replayThenContinue(seen, iterator) };
  throw new InvalidInputError(`invalid JSON (and not JSONL either: no line holds a JSON object): ${whole.message}`, { location });
}
