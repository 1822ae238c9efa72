import { describe, expect, it, vi } from 'vitest';
import { InvalidInputError } from '@reward-lens/spec';
import { segmentSolution } from './segment-solution.js';
import type { StepBoundaryDetector } from './types.js';

function texts(solution: string, options?: Parameters<typeof segmentSolution>[1]): string[] {
  return segmentSolution(solution, options).steps.map((step) => step.text);
}

describe('segmentSolution: delimiter path', () => {
  it('splits the reference example into three steps with exact spans', () => {
    const solution = 'First, 2+2=4.\nThen, 4*3=12.\nFinally, 12-5=7.';
    expect(segmentSolution(solution)).toEqual({
      steps: [
        { text: 'First, 2+2=4.', charSpan: [0, 13] },
        { text: 'Then, 4*3=12.', charSpan: [14, 27] },
        { text: 'Finally, 12-5=7.', charSpan: [28, 44] },
      ],
      method: 'delimiter',
      droppedEmptySteps: 0,
    });
  });

  it('keeps the "\\r" of CRLF and indentation out of steps', () => {
    const segmentation = segmentSolution('  a = 1.\r\n\tb = 2.  \r\n');
    expect(segmentation.steps).toEqual([
      { text: 'a = 1.', charSpan: [2, 8] },
      { text: 'b = 2.', charSpan: [11, 17] },
    ]);
    expect(segmentation.droppedEmptySteps).toBe(1);
  });

  it('drops and counts the empty pieces of leading, trailing and repeated delimiters', () => {
    const segmentation = segmentSolution('\n\nA\n\n\nB\n');
    expect(segmentation.steps).toEqual([
      { text: 'A', charSpan: [2, 3] },
      { text: 'B', charSpan: [6, 7] },
    ]);
    expect(segmentation.droppedEmptySteps).toBe(5);
    expect(segmentation.method).toBe('delimiter');
  });

  it('splits on a blank line, keeping single newlines inside a step', () => {
    expect(texts('Step one.\nstill one.\n\nStep two.', { delimiter: '\n\n' })).toEqual(['Step one.\nstill one.', 'Step two.']);
  });

  it('splits on a step tag such as " ки"', () => {
    const segmentation = segmentSolution('Step 1: 2+2=4 ки\nStep 2: 4*3=12 ки', { delimiter: ' ки' });
    expect(segmentation.steps).toEqual([
      { text: 'Step 1: 2+2=4', charSpan: [0, 13] },
      { text: 'Step 2: 4*3=12', charSpan: [17, 31] },
    ]);
    expect(segmentation.droppedEmptySteps).toBe(1);
  });

  it("splits on a RegExp, without needing or touching the caller's flags and lastIndex", () => {
    const solution = 'Step 1: a\nmore of 1\nStep 2: b\nStep 3: c';
    const lookahead = /\n(?=Step \d)/;
    expect(texts(solution, { delimiter: lookahead })).toEqual(['Step 1: a\nmore of 1', 'Step 2: b', 'Step 3: c']);
    const global = /\n(?=Step \d)/g;
    global.lastIndex = 5;
    expect(texts(solution, { delimiter: global })).toHaveLength(3);
    expect(global.lastIndex).toBe(5);
    expect(texts(solution, { delimiter: /\n(?=Step \d)/y })).toHaveLength(3);
    expect(texts('A\r\n\r\nB\n\nC', { delimiter: /\r?\n\r?\n/ })).toEqual(['A', 'B', 'C']);
  });

  it('rejects delimiters that match the empty string', () => {
    expect(() => segmentSolution('a\nb', { delimiter: /\n*/ })).toThrow(InvalidInputError);
    expect(() => segmentSolution('a\nStep b', { delimiter: /(?=Step)/ })).toThrow(/empty string/);
    expect(() => segmentSolution('a\nb', { delimiter: '' })).toThrow(/options\.delimiter/);
  });

  it('rejects an empty or whitespace-only solution', () => {
    expect(() => segmentSolution('')).toThrow(InvalidInputError);
    expect(() => segmentSolution(' \n\t\r\n')).toThrow(/solution/);
  });
});

describe('segmentSolution: one-step fallback', () => {
  it('treats a solution without the delimiter as one step and says why', () => {
    const segmentation = segmentSolution('  one line solution with no newline at all ');
    expect(segmentation).toEqual({
      steps: [{ text: 'one line solution with no newline at all', charSpan: [2, 42] }],
      method: 'single',
      stepDetection: 'no delimiter "\\n" found: the solution is one step. No step-boundary detector was given; add a delimiter to get per-step scores.',
      delimiterShortfall: 'no delimiter "\\n" found',
      droppedEmptySteps: 0,
    });
  });

  it('says so when the delimiter occurs but only one piece holds text', () => {
    const segmentation = segmentSolution('only step\n\n');
    expect(segmentation.method).toBe('single');
    expect(segmentation.steps).toEqual([{ text: 'only step', charSpan: [0, 9] }]);
    expect(segmentation.stepDetection).toMatch(/^the delimiter "\\n" occurs 2 times but only one piece/);
    expect(segmentSolution('x ки', { delimiter: ' ки' }).stepDetection).toMatch(/occurs once/);
  });
});

describe('segmentSolution: detector seam', () => {
  const sentenceDetector: StepBoundaryDetector = {
    name: 'sentences',
    detect: (solution) => [...solution.matchAll(/[^.]+\./g)].map((match) => [match.index, match.index + match[0].length]),
  };

  it('asks the detector when the delimiter gives fewer than two steps, and trims its spans', () => {
    const segmentation = segmentSolution('2+2=4. Then 4*3=12.', { detector: sentenceDetector });
    expect(segmentation.method).toBe('detector:sentences');
    expect(segmentation.steps).toEqual([
      { text: '2+2=4.', charSpan: [0, 6] },
      { text: 'Then 4*3=12.', charSpan: [7, 19] },
    ]);
    expect(segmentation.stepDetection).toContain('detector "sentences"');
  });

  it('does not ask the detector when the delimiter splits', () => {
    const detect = vi.fn(() => null);
    const segmentation = segmentSolution('a.\nb.', { detector: { name: 'spy', detect } });
    expect(segmentation.method).toBe('delimiter');
    expect(detect).not.toHaveBeenCalled();
  });

  it('falls back to one step, with a note, when the detector finds fewer than two steps', () => {
    for (const found of [null, [], [[0, 3] as const]]) {
      const segmentation = segmentSolution('abc', { detector: { name: 'shy', detect: () => found as never } });
      expect(segmentation.method).toBe('single');
      expect(segmentation.stepDetection).toContain('detector "shy" found fewer than two steps');
    }
  });

  it('rejects malformed detector output, naming the detector', () => {
    const cases: unknown[] = [
      [
        [0, 2],
        [1, 4],
      ], // overlapping
      [
        [2, 4],
        [0, 1],
      ], // unsorted
      [
        [0, 2],
        [3, 99],
      ], // out of range
      [
        [0, 2],
        [2, 2],
      ], // empty
      [
        [0, 1],
        [1, 2],
      ], // whitespace-only second span (" ")
      [
        [0, 1.5],
        [2, 4],
      ], // not integers
      'not an array',
    ];
    for (const output of cases) {
      const detector = { name: 'broken', detect: () => output as never };
      expect(() => segmentSolution('a bcd', { detector })).toThrow(/detector "broken"/);
    }
  });
});

describe('segmentSolution: a solution made only of delimiters', () => {
  it('is refused with a typed error rather than scored as one misleading step', () => {
    for (const delimiter of ['###', ' ки'] as const) {
      const solution = `${delimiter}${delimiter}`;
      expect(() => segmentSolution(solution, { delimiter })).toThrow(InvalidInputError);
      expect(() => segmentSolution(solution, { delimiter })).toThrow(/nothing but the delimiter/);
    }
    expect(() => segmentSolution('--- ---', { delimiter: /-+/ })).toThrow(/nothing but the delimiter \/-\+\/ \(2 matches\)/);
  });
});
