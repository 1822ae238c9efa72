import { describe, expect, it } from 'vitest';
import { InvalidInputError } from '@reward-lens/spec';
import { type CharSpan, createByteBpeTokenizer } from '@reward-lens/tokenizers';
import { mapSpanToReadToken, mapStepsToTokens } from './map-steps-to-tokens.js';
import { segmentSolution } from './segment-solution.js';

const tokenizer = createByteBpeTokenizer();

describe('mapStepsToTokens', () => {
  it('reads the reference example at each step end, through the ".\\n" tokens that cross boundaries', () => {
    const solution = 'First, 2+2=4.\nThen, 4*3=12.\nFinally, 12-5=7.';
    const { offsets } = tokenizer.encode(solution);
    const stepSpans = segmentSolution(solution).steps.map((step) => step.charSpan);
    // Tokens 7 and 15 are ".\n": each holds a step's last character and the newline after it.
    expect(mapStepsToTokens(stepSpans, offsets)).toEqual([
      { tokenSpan: [0, 8], readTokenIndex: 7, readTokenCrossesBoundary: true },
      { tokenSpan: [8, 16], readTokenIndex: 15, readTokenCrossesBoundary: true },
      { tokenSpan: [16, 24], readTokenIndex: 23, readTokenCrossesBoundary: false },
    ]);
    // With a BOS token before the text, every index moves by one.
    expect(mapStepsToTokens(stepSpans, offsets, { tokenOffset: 1 })[2]).toEqual({
      tokenSpan: [17, 25],
      readTokenIndex: 24,
      readTokenCrossesBoundary: false,
    });
  });

  it('reads the last step at the final token, or at its own last token when asked not to', () => {
    const text = 'Q: 1+1?\nA: 1+1=2.\n\n';
    const { offsets } = tokenizer.encode(text);
    const stepSpans: CharSpan[] = [[8, 17]];
    const [finalRead] = mapStepsToTokens(stepSpans, offsets);
    expect(finalRead!.readTokenIndex).toBe(offsets.length - 1);
    expect(finalRead!.tokenSpan[1]).toBe(offsets.length);
    expect(finalRead!.readTokenCrossesBoundary).toBe(true);
    const [ownRead] = mapStepsToTokens(stepSpans, offsets, { lastStepReadsFinalToken: false });
    expect(offsets[ownRead!.readTokenIndex]![0]).toBeLessThan(17);
    expect(offsets[ownRead!.readTokenIndex]![1]).toBeGreaterThanOrEqual(17);
  });

  it('skips zero-width tokens, which overlap nothing', () => {
    // A BOS at [0, 0], "ab" "c" "d", an EOS at [4, 4].
    const offsets: CharSpan[] = [
      [0, 0],
      [0, 2],
      [2, 3],
      [3, 4],
      [4, 4],
    ];
    expect(
      mapStepsToTokens(
        [
          [0, 2],
          [2, 4],
        ],
        offsets,
        { lastStepReadsFinalToken: false },
      ),
    ).toEqual([
      { tokenSpan: [1, 2], readTokenIndex: 1, readTokenCrossesBoundary: false },
      { tokenSpan: [2, 4], readTokenIndex: 3, readTokenCrossesBoundary: false },
    ]);
    // Read at the final token, the EOS, which ends where the step does.
    expect(
      mapStepsToTokens(
        [
          [0, 2],
          [2, 4],
        ],
        offsets,
      )[1],
    ).toEqual({
      tokenSpan: [2, 5],
      readTokenIndex: 4,
      readTokenCrossesBoundary: false,
    });
  });

  it('handles offsets with gaps (a tokenizer that drops spaces) and zero-width tokens inside a step', () => {
    // "ab  cd xy": "ab", a zero-width marker at 4, "cd", a zero-width marker at 6, "xy"; spaces have no token.
    const offsets: CharSpan[] = [
      [0, 2],
      [4, 4],
      [4, 6],
      [6, 6],
      [7, 9],
    ];
    expect(mapStepsToTokens([[3, 7]], offsets, { lastStepReadsFinalToken: false })).toEqual([
      { tokenSpan: [2, 3], readTokenIndex: 2, readTokenCrossesBoundary: false },
    ]);
    expect(() => mapStepsToTokens([[2, 4]], offsets)).toThrow(/overlaps no token/);
  });

  it('gives steps that share a token (one emoji split across them) the same read token', () => {
    // "😀" is two UTF-16 units; a step boundary inside it falls inside one token.
    const offsets: CharSpan[] = [
      [0, 2],
      [2, 3],
    ];
    const mapped = mapStepsToTokens(
      [
        [0, 1],
        [1, 3],
      ],
      offsets,
      { lastStepReadsFinalToken: false },
    );
    expect(mapped[0]).toEqual({ tokenSpan: [0, 1], readTokenIndex: 0, readTokenCrossesBoundary: true });
    expect(mapped[1]).toEqual({ tokenSpan: [0, 2], readTokenIndex: 1, readTokenCrossesBoundary: false });
  });

  it('rejects steps outside the text, unsorted steps, offsets that go backwards and bad tokenOffsets', () => {
    const offsets: CharSpan[] = [
      [0, 2],
      [2, 4],
    ];
    expect(() => mapStepsToTokens([[4, 6]], offsets)).toThrow(InvalidInputError);
    expect(() =>
      mapStepsToTokens(
        [
          [2, 4],
          [0, 1],
        ],
        offsets,
      ),
    ).toThrow(/stepSpans\[1\]/);
    expect(() => mapStepsToTokens([[1, 1]], offsets)).toThrow(/stepSpans\[0\]/);
    expect(() =>
      mapStepsToTokens(
        [[0, 1]],
        [
          [2, 4],
          [0, 2],
        ],
      ),
    ).toThrow(/offsets\[1\]/);
    expect(() => mapStepsToTokens([[0, 1]], offsets, { tokenOffset: -1 })).toThrow(/tokenOffset/);
    expect(mapStepsToTokens([], offsets)).toEqual([]);
  });
});

describe('mapSpanToReadToken', () => {
  it('finds the step-tag token of each step', () => {
    const tagged = createByteBpeTokenizer({ addedTokens: [' ки'] });
    const text = 'Step 1: 2+2=4 ки\nStep 2: 4*3=12 ки';
    const { ids, offsets } = tagged.encode(text);
    const tagSpans: CharSpan[] = [...text.matchAll(/ ки/g)].map((match) => [match.index, match.index + 3]);
    const reads = tagSpans.map((span) => mapSpanToReadToken(span, offsets));
    expect(reads.map((index) => ids[index])).toEqual([512, 512]);
    expect(reads[1]).toBe(ids.length - 1);
    expect(mapSpanToReadToken(tagSpans[0]!, offsets, { tokenOffset: 1 })).toBe(reads[0]! + 1);
  });

  it('reads the last token overlapping a span, and throws when none does', () => {
    const offsets: CharSpan[] = [
      [0, 3],
      [3, 5],
      [5, 9],
    ];
    expect(mapSpanToReadToken([2, 6], offsets)).toBe(2);
    expect(mapSpanToReadToken([3, 5], offsets)).toBe(1);
    expect(() => mapSpanToReadToken([9, 10], offsets)).toThrow(InvalidInputError);
  });
});
