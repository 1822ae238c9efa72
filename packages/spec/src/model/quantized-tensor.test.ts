import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { dequantizeRows, Q4_BLOCK, quantizedBytes, quantizedTensorOver, quantizeInto, quantizeTensor, type QuantizedFormatV1 } from './quantized-tensor.js';

const weights = (length: number) => fc.array(fc.float({ min: -100, max: 100, noNaN: true, noDefaultInfinity: true }), { minLength: length, maxLength: length });

/** A matrix with its shape: q4 rows are whole blocks of 32. */
const matrixOf = (format: QuantizedFormatV1) =>
  fc
    .record({ rows: fc.integer({ min: 1, max: 5 }), blocks: fc.integer({ min: 1, max: 3 }), extra: fc.integer({ min: 0, max: 20 }) })
    .chain(({ rows, blocks, extra }) => {
      const columns = format === 'q4' ? blocks * Q4_BLOCK : blocks * 7 + extra;
      return weights(rows * columns).map((values) => ({ rows, columns, values: Float32Array.from(values) }));
    });

describe('quantized tensors', () => {
  for (const format of ['q8', 'q4'] as const) {
    const range = format === 'q8' ? 127 : 7;
    const group = (columns: number) => (format === 'q8' ? columns : Q4_BLOCK);

    it(`${format}: every weight comes back within half a step of its group's scale, and the largest exactly`, () => {
      fc.assert(
        fc.property(matrixOf(format), ({ rows, columns, values }) => {
          const matrix = quantizeTensor(values, format, rows, columns);
          const back = new Float32Array(rows * columns);
          dequantizeRows(matrix, 0, rows, back);
          const size = group(columns);
          for (let start = 0; start < values.length; start += size) {
            const scale = matrix.scales[start / size]!;
            const largest = Math.max(...values.subarray(start, start + size).map(Math.abs));
            expect(scale).toBe(Math.fround(largest / range));
            for (let index = start; index < start + size; index++) {
              expect(Math.abs(back[index]! - values[index]!)).toBeLessThanOrEqual(scale / 2 + Math.abs(values[index]!) * 2 ** -22 + 1e-30);
            }
          }
        }),
      );
    });

    it(`${format}: rows dequantize alone as they do together`, () => {
      fc.assert(
        fc.property(matrixOf(format), ({ rows, columns, values }) => {
          const matrix = quantizeTensor(values, format, rows, columns);
          const whole = new Float32Array(rows * columns);
          dequantizeRows(matrix, 0, rows, whole);
          for (let row = 0; row < rows; row++) {
            const alone = new Float32Array(columns + 3);
            dequantizeRows(matrix, row, 1, alone, 3);
            expect(alone.subarray(3)).toEqual(whole.subarray(row * columns, (row + 1) * columns));
          }
        }),
      );
    });
  }

  it("q4 packs weight j of a block in byte j's low nibble and weight j + 16 in its high one, stored q + 8", () => {
    const values = Float32Array.from({ length: 32 }, (_, index) => (index < 16 ? index - 8 : 7 - (index - 16)));
    const matrix = quantizeTensor(values, 'q4', 1, 32);
    const scale = Math.fround(8 / 7);
    expect(matrix.scales[0]).toBe(scale);
    const data = matrix.data as Uint8Array;
    const stored = (value: number) => Math.max(-8, Math.min(7, Math.round(value / scale))) + 8;
    for (let j = 0; j < 16; j++) {
      expect(data[j]! & 15).toBe(stored(values[j]!));
      expect(data[j]! >> 4).toBe(stored(values[j + 16]!));
    }
    expect(data[0]! & 15).toBe(1); // -8 / (8/7) = -7
  });

  it('quantizing a piece of whole rows at a time gives the bytes of quantizing the tensor at once, for every format', () => {
    const values = Float32Array.from({ length: 7 * 64 }, (_, index) => Math.sin(index * 0.37) * (1 + (index % 5)));
    for (const format of ['q8', 'q4', 'bf16', 'fp16'] as const) {
      const whole = quantizeTensor(values, format, 7, 64);
      const pieces = quantizedTensorOver(new ArrayBuffer(quantizedBytes(format, 7, 64)), 0, format, 7, 64);
      for (const [first, count] of [
        [0, 3],
        [3, 1],
        [4, 3],
      ] as const)
        quantizeInto(pieces, values.subarray(first * 64, (first + count) * 64), first);
      expect([...pieces.bytes]).toEqual([...whole.bytes]);
    }
    expect(() => quantizeInto(quantizeTensor(values, 'q8', 7, 64), values.subarray(0, 100), 0)).toThrow(/whole rows of 64 weights/);
    expect(() => quantizeInto(quantizeTensor(values, 'q8', 7, 64), values.subarray(0, 128), 6)).toThrow(/within 7 rows from row 6/);
  });

  it('a row of zeros has scale 0 and comes back as zeros', () => {
    const matrix = quantizeTensor(new Float32Array(40), 'q8', 2, 20);
    expect([...matrix.scales]).toEqual([0, 0]);
    const back = new Float32Array(40).fill(1);
    dequantizeRows(matrix, 0, 2, back);
    expect([...back]).toEqual(new Array(40).fill(0));
  });

  it('refuses a non-finite weight, naming it', () => {
    expect(() => quantizeTensor(Float32Array.of(1, Number.NaN, 3, 4), 'q8', 1, 4)).toThrow(/weight 1 is NaN/);
  });

  it('lays a region out as scales then 16-byte aligned integers, and views over it see the same matrix', () => {
    const values = Float32Array.from({ length: 3 * 64 }, (_, index) => Math.sin(index));
    for (const format of ['q8', 'q4'] as const) {
      const matrix = quantizeTensor(values, format, 3, 64);
      expect(matrix.bytes.byteLength).toBe(quantizedBytes(format, 3, 64));
      expect(matrix.dataOffset % 16).toBe(0);
      const buffer = new ArrayBuffer(matrix.bytes.byteLength + 32);
      new Uint8Array(buffer, 32).set(matrix.bytes);
      const over = quantizedTensorOver(buffer, 32, format, 3, 64);
      expect([...over.scales]).toEqual([...matrix.scales]);
      expect([...over.data]).toEqual([...matrix.data]);
    }
    expect(quantizedBytes('q8', 3, 64)).toBe(16 + 192);
    expect(quantizedBytes('q4', 3, 64)).toBe(32 + 96);
  });
});
