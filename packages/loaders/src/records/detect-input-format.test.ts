import { describe, expect, it } from 'vitest';
import { detectInputFormat } from './detect-input-format.js';
import type { NumberedLine } from './read-numbered-lines.js';

async function* linesOf(text: string): AsyncGenerator<NumberedLine> {
  let lineNumber = 0;
  for (const line of text.split('\n')) yield { lineNumber: ++lineNumber, text: line };
}

async function collect(lines: AsyncIterable<NumberedLine>): Promise<number[]> {
  const numbers: number[] = [];
  for await (const line of lines) numbers.push(line.lineNumber);
  return numbers;
}

describe('detectInputFormat', () => {
  it('a first line that is a whole JSON object means JSONL, with every line (blank ones too) passed on', async () => {
    const detected = await detectInputFormat(linesOf('\n{"problem": "a"}\n\n{"problem": "b"}'), 'stdin');
    expect(detected.format).toBe('jsonl');
    if (detected.format === 'jsonl') expect(await collect(detected.lines)).toEqual([1, 2, 3, 4]);
  });

  it('one object on one line is JSONL too (predictable for scripts)', async () => {
    expect((await detectInputFormat(linesOf('{"problem": "a", "solution": "b"}'), 'stdin')).format).toBe('jsonl');
  });

  it('a pretty-printed object or an array is one JSON document', async () => {
    expect(await detectInputFormat(linesOf('{\n  "problem": "a"\n}'), 'stdin')).toEqual({ format: 'json', value: { problem: 'a' } });
    expect(await detectInputFormat(linesOf('[{"problem": "a"}, {"problem": "b"}]'), 'stdin')).toEqual({
      format: 'json',
      value: [{ problem: 'a' }, { problem: 'b' }],
    });
  });

  it('JSONL whose first line is broken stays JSONL, so that only that line errors', async () => {
    const detected = await detectInputFormat(linesOf('{"problem": \n{"problem": "b"}'), 'stdin');
    expect(detected.format).toBe('jsonl');
    if (detected.format === 'jsonl') expect(await collect(detected.lines)).toEqual([1, 2]);
  });

  it('text that is neither is an invalid-input error naming where it came from', async () => {
    await expect(detectInputFormat(linesOf('{\n  "problem": \n}'), 'data.txt')).rejects.toThrow(/^data\.txt: invalid JSON/);
  });

  it('blank lines only are empty', async () => {
    expect(await detectInputFormat(linesOf('\n  \n'), 'stdin')).toEqual({ format: 'empty' });
  });
});
