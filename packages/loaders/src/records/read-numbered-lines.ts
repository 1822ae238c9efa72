import { firstInvalidUtf8Byte } from './utf8-validation.js';

export interface NumberedLine {
  /** 1-based, counting blank lines too, so it matches what an editor shows. */
  lineNumber: number;
  /** The line's text; where its bytes are not valid UTF-8, decoded with U+FFFD replacements. */
  text: string;
  /** Set when the line's bytes are not valid UTF-8: the 0-based offset of the first bad byte in the line. */
  invalidUtf8ByteOffset?: number;
}

const newline = 0x0a;
const carriageReturn = 0x0d;
const decoder = new TextDecoder('utf-8');

function toLine(bytes: Uint8Array, lineNumber: number): NumberedLine {
  let end = bytes.length;
  if (end > 0 && bytes[end - 1] === carriageReturn) end -= 1;
  let start = 0;
  // A UTF-8 byte order mark opens the first line only.
  if (lineNumber === 1 && end >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) start = 3;
  const content = bytes.subarray(start, end);
  const bad = firstInvalidUtf8Byte(content);
  const text = decoder.decode(content);
  return bad < 0 ? { lineNumber, text } : { lineNumber, text, invalidUtf8ByteOffset: bad };
}

/**
 * The stream's lines as they arrive (LF or CRLF), without reading it whole first, so a large
 * JSONL file is scored while it is still being read. Lines are split on raw bytes and decoded one
 * by one, so a line that is not valid UTF-8 is marked (and can be reported) instead of being
 * silently repaired with U+FFFD. A UTF-8 byte order mark is dropped.
 */
export async function* readNumberedLines(stream: NodeJS.ReadableStream): AsyncGenerator<NumberedLine> {
  let lineNumber = 0;
  let pending: Uint8Array[] = [];
  for await (const chunk of stream as AsyncIterable<Uint8Array | string>) {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk;
    let start = 0;
    for (let index = bytes.indexOf(newline); index !== -1; index = bytes.indexOf(newline, start)) {
      pending.push(bytes.subarray(start, index));
      lineNumber += 1;
      yield toLine(pending.length === 1 ? pending[0]! : Buffer.concat(pending), lineNumber);
      pending = [];
      start = index + 1;
    }
    if (start < bytes.length) pending.push(bytes.subarray(start));
  }
  if (pending.length > 0) {
    lineNumber += 1;
    yield toLine(Buffer.concat(pending), lineNumber);
  }
}
