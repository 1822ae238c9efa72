import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { padRows } from './pad-rows.js';

describe('padRows', () => {
  it('pads on the right by default, and on the left when asked, with the pad id under a zero mask', () => {
    const right = padRows([[5, 6, 7], [8]], { padTokenId: 9 });
    expect(right).toMatchObject({ batchSize: 2, sequenceLength: 3, shifts: [0, 0] });
    expect([...right.inputIds]).toEqual([5, 6, 7, 8, 9, 9]);
    expect([...right.attentionMask]).toEqual([1, 1, 1, 1, 0, 0]);
    const left = padRows([[5, 6, 7], [8]], { padTokenId: 9, side: 'left' });
    expect(left.shifts).toEqual([0, 2]);
    expect([...left.inputIds]).toEqual([5, 6, 7, 9, 9, 8]);
    expect([...left.attentionMask]).toEqual([1, 1, 1, 0, 0, 1]);
  });

  it('keeps every row whole at its shift, on either side (any rows)', () => {
    fc.assert(
      fc.property(fc.array(fc.array(fc.integer({ min: 1, max: 1000 }), { maxLength: 9 }), { minLength: 1, maxLength: 6 }), fc.boolean(), (rows, left) => {
        const padded = padRows(rows, { side: left ? 'left' : 'right' });
        expect(padded.sequenceLength).toBe(Math.max(...rows.map((row) => row.length)));
        rows.forEach((row, index) => {
          const start = index * padded.sequenceLength + padded.shifts[index]!;
          expect([...padded.inputIds.subarray(start, start + row.length)]).toEqual(row);
          const mask = padded.attentionMask.subarray(index * padded.sequenceLength, (index + 1) * padded.sequenceLength);
          expect(mask.reduce((sum, bit) => sum + bit, 0)).toBe(row.length);
        });
      }),
    );
  });
});
