import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { nextTokenLoss } from './next-token-loss.js';

/** The mean of -log softmax(logits)[target] in float64, written out directly. */
function referenceLoss(ids: Int32Array[], positions: number[][], values: Float64Array[], width: number): number {
  let total = 0;
  let count = 0;
  values.forEach((row, rowIndex) => {
    positions[rowIndex]!.forEach((position, slot) => {
      const logits = Array.from(row.subarray(slot * width, (slot + 1) * width));
      const target = ids[rowIndex]![position + 1]!;
      total += Math.log(logits.reduce((sum, value) => sum + Math.exp(value), 0)) - logits[target]!;
      count++;
    });
  });
  return total / count;
}

const width = 5;
const batch = fc
  .array(
    fc.record({
      length: fc.integer({ min: 2, max: 7 }),
      seed: fc.integer({ min: 0, max: 1000 }),
    }),
    { minLength: 1, maxLength: 3 },
  )
  .map((rows) =>
    rows.map(({ length, seed }) => {
      const ids = Int32Array.from({ length }, (_, index) => (seed * 7 + index * 3) % width);
      const positions = Array.from({ length: length - 1 - (seed % 2) }, (_, index) => index + (seed % 2));
      const values = Float64Array.from({ length: positions.length * width }, (_, index) => Math.sin(seed + index * 1.7) * 3);
      return { ids, positions, values };
    }),
  );

describe('nextTokenLoss', () => {
  it('is the mean next-token cross-entropy, each read predicting the token after its position', () => {
    fc.assert(
      fc.property(batch, (rows) => {
        const result = nextTokenLoss(
          rows.map((row) => row.ids),
          rows.map((row) => row.positions),
          rows.map((row) => Float32Array.from(row.values)),
          width,
          1,
        );
        const tokens = rows.reduce((sum, row) => sum + row.positions.length, 0);
        expect(result.tokens).toBe(tokens);
        if (tokens === 0) return;
        const expected = referenceLoss(
          rows.map((row) => row.ids),
          rows.map((row) => row.positions),
          rows.map((row) => Float64Array.from(Float32Array.from(row.values))),
          width,
        );
        expect(result.loss).toBeCloseTo(expected, 5);
      }),
    );
  });

  it('its gradient, times the weight, matches central differences of the loss', () => {
    fc.assert(
      fc.property(batch, fc.double({ min: 0.1, max: 3, noNaN: true }), (rows, scale) => {
        const ids = rows.map((row) => row.ids);
        const positions = rows.map((row) => row.positions);
        if (positions.every((row) => row.length === 0)) return;
        const { gradients } = nextTokenLoss(
          ids,
          positions,
          rows.map((row) => Float32Array.from(row.values)),
          width,
          scale,
        );
        const h = 1e-4;
        rows.forEach((row, rowIndex) => {
          for (let index = 0; index < row.values.length; index++) {
            const shifted = (delta: number) =>
              rows.map((other, otherIndex) => {
                const copy = Float64Array.from(other.values);
                if (otherIndex === rowIndex) copy[index]! += delta;
                return copy;
              });
            const numeric = (referenceLoss(ids, positions, shifted(h), width) - referenceLoss(ids, positions, shifted(-h), width)) / (2 * h);
            expect(gradients[rowIndex]![index]).toBeCloseTo(scale * numeric, 4);
          }
        });
      }),
      { numRuns: 40 },
    );
  });
});
