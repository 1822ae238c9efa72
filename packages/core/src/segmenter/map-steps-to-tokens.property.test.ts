import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type CharSpan, createByteBpeTokenizer } from '@reward-lens/tokenizers';
import { mixedText, stepText } from '@reward-lens/test-data/mixed-text';
import { mapStepsToTokens } from './map-steps-to-tokens.js';
import { segmentSolution } from './segment-solution.js';

/** Tokenizers reduced to what the mapping reads: character offsets. */
interface OffsetTokenizer {
  name: string;
  offsets(text: string): CharSpan[];
}

const byteBpe = createByteBpeTokenizer({ addedTokens: ['<extra_0>'] });

const tokenizers: OffsetTokenizer[] = [
  { name: 'byte BPE', offsets: (text) => byteBpe.encode(text).offsets },
  // One token per UTF-16 code unit: no token ever crosses a boundary.
  {
    name: 'code units',
    offsets: (text) => Array.from({ length: text.length }, (_, index) => [index, index + 1] as const),
  },
  // Greedy 3-unit chunks over everything: merges across delimiters and splits surrogate pairs.
  {
    name: 'three-unit chunks',
    offsets: (text) =>
      Array.from({ length: Math.ceil(text.length / 3) }, (_, index) => {
        return [3 * index, Math.min(3 * index + 3, text.length)] as const;
      }),
  },
  // Whitespace-free words with a zero-width marker where each whitespace run starts (spaces get no
  // token), as some word-level tokenizers do: offsets with gaps and zero-width tokens.
  {
    name: 'words and zero-width markers',
    offsets: (text) =>
      [...text.matchAll(/\S+|\s+/g)].map((match) => {
        const isWhitespace = /\s/.test(match[0]);
        return [match.index, isWhitespace ? match.index : match.index + match[0].length] as const;
      }),
  },
];

const delimiters = [
  { delimiter: '\n', forbidden: '\n', run: (repeats: number, crlf: boolean) => (crlf ? '\r\n' : '\n').repeat(repeats) },
  { delimiter: ' ки', forbidden: 'ки', run: (repeats: number) => ' ки'.repeat(repeats) },
  { delimiter: '<extra_0>', forbidden: '<extra_0>', run: (repeats: number) => '<extra_0>'.repeat(repeats) },
];

const scenario = fc
  .constantFrom(...delimiters)
  .chain((delimiterCase) =>
    fc.record({
      delimiterCase: fc.constant(delimiterCase),
      tokenizer: fc.constantFrom(...tokenizers),
      prefix: mixedText(6),
      steps: fc.array(stepText(delimiterCase.forbidden), { minLength: 1, maxLength: 5 }),
      repeats: fc.array(fc.integer({ min: 1, max: 3 }), { minLength: 7, maxLength: 7 }),
      crlf: fc.boolean(),
      tokenOffset: fc.integer({ min: 0, max: 3 }),
      lastStepReadsFinalToken: fc.boolean(),
    }),
  )
  .map((input) => {
    const { delimiterCase, steps, repeats, crlf } = input;
    const run = (index: number) => delimiterCase.run(repeats[index]!, crlf);
    // Optional leading and trailing delimiter runs: repeats[0] and repeats[6] of 3 mean "none".
    const leading = repeats[0] === 3 ? '' : run(0);
    const trailing = repeats[6] === 3 ? '' : run(6);
    const solution = leading + steps.map((step, index) => (index > 0 ? run(index) : '') + step).join('') + trailing;
    return { ...input, solution, fullText: input.prefix + solution };
  });

function overlaps(token: CharSpan, span: CharSpan): boolean {
  return token[0] < span[1] && token[1] > span[0];
}

describe('mapStepsToTokens: properties', () => {
  it('maps every step to the tokens over its characters and reads the token holding its last character', () => {
    fc.assert(
      fc.property(scenario, (input) => {
        const { fullText, prefix, tokenOffset, lastStepReadsFinalToken } = input;
        const segmentation = segmentSolution(input.solution, { delimiter: input.delimiterCase.delimiter });
        const stepSpans = segmentation.steps.map((step) => [step.charSpan[0] + prefix.length, step.charSpan[1] + prefix.length] as const);
        const offsets = input.tokenizer.offsets(fullText);
        const unshifted = mapStepsToTokens(stepSpans, offsets, { lastStepReadsFinalToken });
        const mapped = mapStepsToTokens(stepSpans, offsets, { lastStepReadsFinalToken, tokenOffset });

        mapped.forEach((stepTokens, stepIndex) => {
          const [stepStart, stepEnd] = stepSpans[stepIndex]!;
          const stepText = segmentation.steps[stepIndex]!.text;
          const isLast = stepIndex === stepSpans.length - 1;
          const plain = unshifted[stepIndex]!;
          // tokenOffset shifts every index and nothing else.
          expect(stepTokens).toEqual({
            tokenSpan: [plain.tokenSpan[0] + tokenOffset, plain.tokenSpan[1] + tokenOffset],
            readTokenIndex: plain.readTokenIndex + tokenOffset,
            readTokenCrossesBoundary: plain.readTokenCrossesBoundary,
          });
          const [first, end] = plain.tokenSpan;
          const read = plain.readTokenIndex;
          expect(read).toBe(end - 1);

          // The step's text is where it should be inside the text its tokens cover.
          const coveredStart = offsets[first]![0];
          const covered = fullText.slice(coveredStart, offsets[end - 1]![1]);
          expect(stepStart - coveredStart).toBeGreaterThanOrEqual(0);
          expect(covered.slice(stepStart - coveredStart, stepStart - coveredStart + stepText.length)).toBe(stepText);

          // The first token overlaps the step and none before it does.
          expect(overlaps(offsets[first]!, [stepStart, stepEnd])).toBe(true);
          expect(offsets.slice(0, first).some((token) => overlaps(token, [stepStart, stepEnd]))).toBe(false);

          if (isLast && lastStepReadsFinalToken) {
            expect(read).toBe(offsets.length - 1);
            expect(end).toBe(offsets.length);
          } else {
            // The read token holds the step's last character, and no later token overlaps the step.
            expect(offsets[read]![0]).toBeLessThanOrEqual(stepEnd - 1);
            expect(offsets[read]![1]).toBeGreaterThanOrEqual(stepEnd);
            expect(offsets.slice(read + 1).some((token) => overlaps(token, [stepStart, stepEnd]))).toBe(false);
          }
          expect(plain.readTokenCrossesBoundary).toBe(offsets[read]![1] > stepEnd);
        });
      }),
      { numRuns: 900 },
    );
  });

  it('reads the final token for the last step when the step ends the text, so no crossing is reported', () => {
    const solutions = fc.array(stepText('\n'), { minLength: 1, maxLength: 4 }).map((steps) => steps.map((step) => step.trim()).join('\n'));
    fc.assert(
      fc.property(solutions, fc.constantFrom(...tokenizers), (solution, tokenizer) => {
        const stepSpans = segmentSolution(solution).steps.map((step) => step.charSpan);
        const offsets = tokenizer.offsets(solution);
        const last = mapStepsToTokens(stepSpans, offsets).at(-1)!;
        const ownRead = mapStepsToTokens(stepSpans, offsets, { lastStepReadsFinalToken: false }).at(-1)!;
        expect(last).toEqual(ownRead);
        expect(last.readTokenIndex).toBe(offsets.length - 1);
        expect(last.readTokenCrossesBoundary).toBe(false);
      }),
      { numRuns: 300 },
    );
  });
});
