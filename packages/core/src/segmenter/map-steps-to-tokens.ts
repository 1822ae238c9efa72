import { InvalidInputError } from '@reward-lens/spec';
import type { CharSpan } from '@reward-lens/tokenizers';
import { findOverlappingTokens, validateOffsets } from './find-overlapping-tokens.js';
import type { StepTokens } from './types.js';

export interface MapStepsToTokensOptions {
  /**
   * Read the last step at the final token of `offsets`, so the last step score is the outcome score
   * (the whole solution's reward, read at the final token). Default true.
   */
  lastStepReadsFinalToken?: boolean;
  /** Added to every token index: the number of tokens (a BOS, a prompt) placed before `offsets[0]`. */
  tokenOffset?: number;
}

function validateTokenOffset(tokenOffset: number): void {
  if (!Number.isInteger(tokenOffset) || tokenOffset < 0) {
    throw new InvalidInputError(`tokenOffset must be a non-negative integer, got ${tokenOffset}`, {
      location: 'options.tokenOffset',
    });
  }
}

function validateStepSpans(stepSpans: readonly CharSpan[]): void {
  let previousEnd = 0;
  stepSpans.forEach((span, index) => {
    const [start, end] = span;
    if (!Number.isInteger(start) || !Number.isInteger(end) || start < previousEnd || end <= start) {
      throw new InvalidInputError(`step span ${JSON.stringify(span)} must be non-empty, sorted and not overlap the step before`, {
        location: `stepSpans[${index}]`,
      });
    }
    previousEnd = end;
  });
}

/**
 * Maps steps' character spans to token coordinates. `stepSpans` and `offsets` must share one
 * coordinate system: absolute positions in the text that was encoded (prompt and all).
 *
 * A step's tokens are those overlapping its characters; it is read at the last of them, the token
 * holding its last character. When a tokenizer merged that token with the next step's text (`".\n"`
 * then `"Then"`, say), the read is still there and `readTokenCrossesBoundary` says so. Lookups are
 * binary searches: O(tokens) to validate the offsets once, then O(log tokens) per step.
 *
 * @example
 * // "ab.\ncd": tokens "ab" ".\n" "cd"; steps [0, 3) and [4, 6)
 * mapStepsToTokens([[0, 3], [4, 6]], [[0, 2], [2, 4], [4, 6]], { tokenOffset: 1 });
 * // [{ tokenSpan: [1, 3], readTokenIndex: 2, readTokenCrossesBoundary: true },
 * //  { tokenSpan: [3, 4], readTokenIndex: 3, readTokenCrossesBoundary: false }]
 */
export function mapStepsToTokens(stepSpans: readonly CharSpan[], offsets: readonly CharSpan[], options: MapStepsToTokensOptions = {}): StepTokens[] {
  const lastStepReadsFinalToken = options.lastStepReadsFinalToken ?? true;
  const tokenOffset = options.tokenOffset ?? 0;
  validateTokenOffset(tokenOffset);
  validateStepSpans(stepSpans);
  validateOffsets(offsets);
  return stepSpans.map((span, index) => {
    const overlapping = findOverlappingTokens(span, offsets);
    if (overlapping === null) {
      throw new InvalidInputError(`step ${index} (characters [${span[0]}, ${span[1]})) overlaps no token: is it outside the encoded text?`, {
        location: `stepSpans[${index}]`,
      });
    }
    const isLast = index === stepSpans.length - 1;
    const readToken = isLast && lastStepReadsFinalToken ? offsets.length - 1 : overlapping.last;
    return {
      tokenSpan: [overlapping.first + tokenOffset, readToken + 1 + tokenOffset] as const,
      readTokenIndex: readToken + tokenOffset,
      readTokenCrossesBoundary: offsets[readToken]![1] > span[1],
    };
  });
}

/**
 * The token to read for one span (a step tag such as `<extra_0>`): the last token overlapping it.
 * Throws when no token does.
 */
export function mapSpanToReadToken(span: CharSpan, offsets: readonly CharSpan[], options: { tokenOffset?: number } = {}): number {
  const tokenOffset = options.tokenOffset ?? 0;
  validateTokenOffset(tokenOffset);
  validateOffsets(offsets);
  const overlapping = findOverlappingTokens(span, offsets);
  if (overlapping === null) {
    throw new InvalidInputError(`characters [${span[0]}, ${span[1]}) overlap no token`, { location: 'span' });
  }
  return overlapping.last + tokenOffset;
}
