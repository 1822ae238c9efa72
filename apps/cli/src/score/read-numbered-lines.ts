import { createInterface } from 'node:readline';

export interface NumberedLine {
  /** 1-based, counting blank lines too, so it matches what an editor shows. */
  lineNumber: number;
  text: string;
}

/**
 * The stream's lines as they arrive (LF or CRLF), without reading it whole first, so a large
 * JSONL file is scored while it is still being read. A UTF-8 byte order mark is dropped.
 */
export async function* readNumberedLines(stream: NodeJS.ReadableStream): AsyncGenerator<NumberedLine> {
  const lines = createInterface({ input: stream, crlfDelay: Number.POSITIVE_INFINITY });
  let lineNumber = 0;
  try {
    for await (const line of lines) {
      lineNumber += 1;
      yield { lineNumber, text: lineNumber === 1 ? line.replace(/^\uFEFF/, '') : line };
    }
  } finally {
    lines.close();
  }
}
