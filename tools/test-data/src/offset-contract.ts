import { expect } from 'vitest';

/** A character span and an encoding, as `@reward-lens/tokenizers` gives them (written out here: this package depends on none of ours). */
export type CharSpan = readonly [start: number, end: number];
export interface Encoding {
  ids: readonly number[];
  offsets: readonly CharSpan[];
}

/**
 * Test support: the `Encoding.offsets` contract every tokenizer keeps. One span
 * per id, covering the text from 0 to its end, each non-empty, non-decreasing, with no gap (a span
 * starts before the previous one ends only when they share a character).
 */
export function expectOffsetContract(text: string, encoding: Encoding): void {
  const { ids, offsets } = encoding;
  expect(offsets).toHaveLength(ids.length);
  if (text.length === 0) {
    expect(ids).toEqual([]);
    return;
  }
  expect(offsets[0]![0]).toBe(0);
  expect(offsets.at(-1)![1]).toBe(text.length);
  offsets.forEach(([start, end], index) => {
    expect(start).toBeLessThan(end);
    if (index === 0) return;
    const [previousStart, previousEnd] = offsets[index - 1]!;
    expect(start).toBeGreaterThanOrEqual(previousStart);
    expect(end).toBeGreaterThanOrEqual(previousEnd);
    expect(start).toBeLessThanOrEqual(previousEnd);
  });
}

/**
 * The tokens in runs that share characters (byte-level pieces of one emoji, say): `[from, to)`
 * token ranges, each with the character span the run covers. A token alone is a run of one.
 */
export function tokenRuns(offsets: readonly CharSpan[]): { from: number; to: number; span: CharSpan }[] {
  const runs: { from: number; to: number; span: CharSpan }[] = [];
  let from = 0;
  for (let index = 1; index <= offsets.length; index += 1) {
    if (index < offsets.length && offsets[index]![0] < offsets[index - 1]![1]) continue;
    runs.push({ from, to: index, span: [offsets[from]![0], offsets[index - 1]![1]] });
    from = index;
  }
  return runs;
}
