import { trimSpan } from '../segmenter/trim-span.js';
import type { CharSpan } from '@reward-lens/tokenizers';

/**
 * The steps of `solution` when a step ends after each of the given token ends (character
 * offsets in the solution: a boundary snaps to the end of the token it follows). Each step is
 * the stretch between two boundaries with surrounding whitespace removed, as delimiter pieces are;
 * a stretch holding only whitespace is no step, and a boundary at or past the end of the last
 * content is ignored. Spans are sorted, do not overlap and cover every non-whitespace character.
 *
 * @example
 * stepSpansAtTokenEnds('First 2+2=4. Then 4*3=12.', [12]); // [[0, 12], [13, 25]]
 */
export function stepSpansAtTokenEnds(solution: string, boundaryEnds: readonly number[]): CharSpan[] {
  const ends = [...new Set(boundaryEnds)].filter((end) => end > 0 && end < solution.length).sort((a, b) => a - b);
  const spans: CharSpan[] = [];
  let cursor = 0;
  for (const end of [...ends, solution.length]) {
    const content = trimSpan(solution, cursor, end);
    if (content !== null) spans.push(content);
    cursor = end;
  }
  return spans;
}
