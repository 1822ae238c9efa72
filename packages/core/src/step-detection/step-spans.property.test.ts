import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { stepSpansAtTokenEnds } from './step-spans.js';

const text = fc.stringMatching(/^[a-z .\n\t=+0-9]{0,60}$/);

describe('stepSpansAtTokenEnds', () => {
  it('gives trimmed, ordered steps covering every non-whitespace character, none straddling a boundary', () => {
    fc.assert(
      fc.property(text, fc.array(fc.nat(70), { maxLength: 12 }), (solution, ends) => {
        const spans = stepSpansAtTokenEnds(solution, ends);
        let previousEnd = 0;
        for (const [start, end] of spans) {
          expect(start).toBeGreaterThanOrEqual(previousEnd);
          expect(end).toBeGreaterThan(start);
          const piece = solution.slice(start, end);
          expect(piece).toBe(piece.trim());
          for (const boundary of ends) expect(boundary > start && boundary < end, `boundary ${boundary} inside [${start}, ${end})`).toBe(false);
          previousEnd = end;
        }
        const covered = new Set(spans.flatMap(([start, end]) => Array.from({ length: end - start }, (_, index) => start + index)));
        [...solution].forEach((character, index) => {
          if (character.trim() !== '') expect(covered.has(index), `character ${index} (${JSON.stringify(character)})`).toBe(true);
        });
        // No boundary inside the content: one step, the whole trimmed text.
        if (solution.trim() !== '' && ends.every((end) => end <= solution.length - solution.trimStart().length || end >= solution.trimEnd().length)) {
          expect(spans).toHaveLength(1);
        }
      }),
      { numRuns: 400 },
    );
  });

  it('splits where the boundary token ends', () => {
    expect(stepSpansAtTokenEnds('First 2+2=4. Then 4*3=12.', [12])).toEqual([
      [0, 12],
      [13, 25],
    ]);
    expect(stepSpansAtTokenEnds('a.  b.', [3, 4])).toEqual([
      [0, 2],
      [4, 6],
    ]);
    expect(stepSpansAtTokenEnds('one', [0, 3, 9])).toEqual([[0, 3]]);
  });
});
