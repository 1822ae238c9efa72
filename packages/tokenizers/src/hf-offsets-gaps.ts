import type { CharSpan } from './tokenizer.js';

/**
 * Gives characters no token came from (whitespace a `Strip` normalizer dropped, control characters
 * a `Precompiled` one deleted) to a neighbouring token, so offsets cover the text with no gap: to
 * the token before, unless that one is an added token or zero-width (a lone dummy prefix), then to
 * the token after, unless that one is an added token too; before the first token, to the first;
 * after the last, to the last. Added tokens keep their literal span where they can, since readers
 * check a step tag's span against the tag. Edits `offsets` in place.
 */
export function fillOffsetGaps(offsets: CharSpan[], isAdded: readonly boolean[], textLength: number): void {
  let covered = 0;
  offsets.forEach((span, index) => {
    const [start, end] = span;
    if (start > covered) {
      const previous = offsets[index - 1];
      if (previous === undefined) {
        offsets[index] = [covered, end];
      } else if (!isAdded[index - 1] && previous[0] < previous[1]) {
        offsets[index - 1] = [previous[0], start];
      } else if (!isAdded[index]) {
        offsets[index] = [covered, end];
      } else {
        offsets[index - 1] = [previous[0], start];
      }
    }
    covered = Math.max(covered, offsets[index]![1]);
  });
  const last = offsets.at(-1);
  if (last !== undefined && covered < textLength) offsets[offsets.length - 1] = [last[0], textLength];
}

/**
 * What is wrong with `offsets` as `Encoding.offsets` for a text of `textLength` code units, or
 * `null`: spans inside the text, starts and ends each non-decreasing, no gap between tokens, from 0
 * to the end. No tokens at all is accepted (the text was empty, or all of it was dropped).
 */
export function offsetsProblem(offsets: readonly CharSpan[], textLength: number): string | null {
  let covered = 0;
  let previousStart = 0;
  for (const [index, [start, end]] of offsets.entries()) {
    if (!Number.isInteger(start) || !Number.isInteger(end) || start < 0 || end < start || end > textLength) {
      return `token ${index} has span [${start}, ${end}), not inside the ${textLength}-unit text`;
    }
    if (start < previousStart || end < covered) return `token ${index} has span [${start}, ${end}), which goes backwards`;
    if (start > covered) return `characters [${covered}, ${start}) before token ${index} belong to no token`;
    previousStart = start;
    covered = end;
  }
  if (offsets.length > 0 && covered !== textLength) return `characters [${covered}, ${textLength}) after the last token belong to no token`;
  return null;
}
