import { InvalidInputError } from '@reward-lens/spec';
import type { CharSpan } from '@reward-lens/tokenizers';

/**
 * Checks what the binary searches below rely on: integer spans with `start <= end`, starts and ends
 * each non-decreasing (the `Encoding.offsets` contract). One linear pass, cheap next to a forward.
 */
export function validateOffsets(offsets: readonly CharSpan[]): void {
  let previousStart = 0;
  let previousEnd = 0;
  offsets.forEach((span, index) => {
    const [start, end] = span;
    if (!Number.isInteger(start) || !Number.isInteger(end) || start < 0 || end < start) {
      throw new InvalidInputError(`token span ${JSON.stringify(span)} is not a [start, end) pair`, {
        location: `offsets[${index}]`,
      });
    }
    if (start < previousStart || end < previousEnd) {
      throw new InvalidInputError(`token span ${JSON.stringify(span)} goes backwards: offsets must be non-decreasing`, {
        location: `offsets[${index}]`,
      });
    }
    previousStart = start;
    previousEnd = end;
  });
}

/** The first index whose `offsets[index][side]` satisfies `isPast`, or `offsets.length`. */
function lowerBound(offsets: readonly CharSpan[], side: 0 | 1, isPast: (value: number) => boolean): number {
  let low = 0;
  let high = offsets.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (isPast(offsets[middle]![side])) high = middle;
    else low = middle + 1;
  }
  return low;
}

function isZeroWidth(span: CharSpan): boolean {
  return span[0] === span[1];
}

/**
 * The first and last tokens overlapping `[start, end)` (`tokenStart < end && tokenEnd > start`), or
 * `null` when none does. Zero-width tokens overlap nothing. Expects validated offsets.
 *
 * Since ends are non-decreasing, tokens ending after `start` form a suffix; since starts are, tokens
 * starting before `end` form a prefix. Their intersection, less zero-width tokens, is the answer.
 */
export function findOverlappingTokens(span: CharSpan, offsets: readonly CharSpan[]): { first: number; last: number } | null {
  const [start, end] = span;
  let first = lowerBound(offsets, 1, (tokenEnd) => tokenEnd > start);
  let pastLast = lowerBound(offsets, 0, (tokenStart) => tokenStart >= end);
  while (first < pastLast && isZeroWidth(offsets[first]!)) first += 1;
  while (pastLast > first && isZeroWidth(offsets[pastLast - 1]!)) pastLast -= 1;
  return first < pastLast ? { first, last: pastLast - 1 } : null;
}
