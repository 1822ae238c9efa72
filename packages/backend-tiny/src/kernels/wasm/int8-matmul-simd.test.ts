import { createSeededRandom, type QuantizedTensorV1 } from '@reward-lens/spec';
import { quantizedBytes, quantizedTensorOver, quantizeTensor } from '@reward-lens/spec/internal';
import { describe, expect, it } from 'vitest';
import { expectRowsAlone } from '../../../test/support/rows-alone.js';
import { flushElements } from './int8-matmul-simd.js';
import { createWasmSimdKernels } from './wasm-simd-kernels.js';

// The q8 integer product against a float64 product written here, over the weights widened here
// (`scale · q`, as the spec defines them): its error is the activations' rounding to ±32767 steps
// of a per-row scale, at most half a step per element, so |Δ| ≤ (max|x| / 32767 / 2) · Σ|w|, plus
// float32 rounding (the scale, the product, the sums: a few 2^-24 of Σ|x·w|, allowed 2^-20).
const LEVELS = 32_767;

function widen(matrix: QuantizedTensorV1): Float64Array {
  const { rows, columns, scales } = matrix;
  const data = matrix.data as Int8Array;
  const widened = new Float64Array(rows * columns);
  for (let row = 0; row < rows; row++) for (let k = 0; k < columns; k++) widened[row * columns + k] = Math.fround(scales[row]! * data[row * columns + k]!);
  return widened;
}

/** The largest |actual - float64| over the bound above, for every output (≤ 1 passes). */
function worstOverBound(actual: Float32Array, x: Float32Array, matrix: QuantizedTensorV1, rows: number, bias?: Float32Array): number {
  const { rows: outDim, columns: inDim } = matrix;
  const w = widen(matrix);
  let worst = 0;
  for (let row = 0; row < rows; row++) {
    let largest = 0;
    for (let k = 0; k < inDim; k++) largest = Math.max(largest, Math.abs(x[row * inDim + k]!));
    for (let column = 0; column < outDim; column++) {
      let expected = bias?.[column] ?? 0;
      let absoluteWeights = 0;
      let absoluteProducts = Math.abs(expected);
      for (let k = 0; k < inDim; k++) {
        const product = x[row * inDim + k]! * w[column * inDim + k]!;
        expected += product;
        absoluteProducts += Math.abs(product);
        absoluteWeights += Math.abs(w[column * inDim + k]!);
      }
      const bound = absoluteWeights * largest * (1 / (2 * LEVELS) + 2 ** -20) + absoluteProducts * 2 ** -20 + Number.MIN_VALUE;
      worst = Math.max(worst, Math.abs(actual[row * outDim + column]! - expected) / bound);
    }
  }
  return worst;
}

function randomArray(length: number, random: () => number, scale = 1): Float32Array {
  return Float32Array.from({ length }, () => (random() * 2 - 1) * scale);
}

const bitsOf = (values: Float32Array) => [...new Uint32Array(values.buffer, values.byteOffset, values.length)];

describe('q8 products on integers (i32x4.dot_i16x8_s)', () => {
  it('stay within the activation rounding of a float64 product, for shapes with and without an 8-wide tail, resident or copied, with and without a bias', () => {
    const random = createSeededRandom(11);
    const kernels = createWasmSimdKernels();
    const inDims = [1, 3, 7, 8, 9, 15, 16, 17, 31, 33, 100, 255, 2047, 2048, 2049, 2056, 4100];
    for (let trial = 0; trial < 60; trial++) {
      const inDim = inDims[trial % inDims.length]!;
      const rows = 1 + Math.floor(random() * 7);
      const outDim = 1 + Math.floor(random() * (inDim > 1000 ? 9 : 23));
      const x = randomArray(rows * inDim, random, 10 ** (random() * 6 - 3));
      const matrix = quantizeTensor(randomArray(outDim * inDim, random, 0.3), 'q8', outDim, inDim);
      const bias = trial % 2 === 0 ? randomArray(outDim, random) : undefined;
      if (trial % 3 === 0) kernels.prepareQuantized(matrix);
      const out = new Float32Array(rows * outDim);
      kernels.matmulQuantized(out, x, matrix, rows, inDim, outDim, bias);
      expect(worstOverBound(out, x, matrix, rows, bias), `rows ${rows}, inDim ${inDim}, outDim ${outDim}`).toBeLessThanOrEqual(1);
    }
  });

  it('keep rows of very different magnitudes apart (one scale per row), and give a zero row exactly its bias', () => {
    const kernels = createWasmSimdKernels();
    const random = createSeededRandom(12);
    const [inDim, outDim] = [70, 13];
    const rows = [randomArray(inDim, random, 3e4), new Float32Array(inDim), randomArray(inDim, random, 1e-3), randomArray(inDim, random, 1e-30)];
    // A row with one large outlier among small values: the outlier sets the scale, the rest keep 15 bits of it.
    const outlier = randomArray(inDim, random, 0.01);
    outlier[5] = 400;
    rows.push(outlier);
    const x = new Float32Array(rows.length * inDim);
    rows.forEach((row, index) => x.set(row, index * inDim));
    const matrix = quantizeTensor(randomArray(outDim * inDim, random), 'q8', outDim, inDim);
    const bias = randomArray(outDim, random);
    const out = new Float32Array(rows.length * outDim);
    kernels.matmulQuantized(out, x, matrix, rows.length, inDim, outDim, bias);
    expect(worstOverBound(out, x, matrix, rows.length, bias)).toBeLessThanOrEqual(1);
    expect(bitsOf(out.subarray(outDim, 2 * outDim))).toEqual(bitsOf(bias));
  });

  it('never overflow an i32 lane: every activation and weight at the largest magnitude, with the sign, at 18,944 (7B) and past several flushes', () => {
    const kernels = createWasmSimdKernels();
    for (const inDim of [flushElements(LEVELS), flushElements(LEVELS) + 8, 18_944, 3 * flushElements(LEVELS) + 5]) {
      const outDim = 5;
      const matrix = quantizedTensorOver(new ArrayBuffer(quantizedBytes('q8', outDim, inDim)), 0, 'q8', outDim, inDim);
      const data = matrix.data as Int8Array;
      // Rows of -128 (the most any int8 holds, past quantizeInto's -127) and 127, scale 1.
      for (let column = 0; column < outDim; column++) {
        matrix.scales[column] = 1;
        data.fill(column % 2 === 0 ? -128 : 127, column * inDim, (column + 1) * inDim);
      }
      const x = new Float32Array(2 * inDim).fill(-1);
      x.fill(1, inDim);
      const out = new Float32Array(2 * outDim);
      kernels.matmulQuantized(out, x, matrix, 2, inDim, outDim);
      for (let column = 0; column < outDim; column++) {
        const weight = column % 2 === 0 ? -128 : 127;
        expect(out[column]).toBeCloseTo(-weight * inDim, -1);
        expect(out[outDim + column]).toBeCloseTo(weight * inDim, -1);
      }
    }
  });

  it('give a row the same bits alone as among others, on every tile of the blocking', () => {
    const kernels = createWasmSimdKernels();
    const random = createSeededRandom(13);
    for (const [rows, inDim, outDim] of [
      [9, 96, 70],
      [5, 2053, 11],
    ] as const) {
      const x = randomArray(rows * inDim, random);
      const matrix = quantizeTensor(randomArray(outDim * inDim, random), 'q8', outDim, inDim);
      expectRowsAlone(kernels, x, matrix, rows);
    }
  });

  it('give NaN for a row holding NaN or an infinity, and leave the other rows alone', () => {
    const kernels = createWasmSimdKernels();
    const random = createSeededRandom(14);
    const [inDim, outDim] = [24, 6];
    const x = randomArray(3 * inDim, random);
    x[3] = Number.NaN;
    x[2 * inDim + 7] = Number.POSITIVE_INFINITY;
    const matrix = quantizeTensor(randomArray(outDim * inDim, random), 'q8', outDim, inDim);
    const out = new Float32Array(3 * outDim);
    kernels.matmulQuantized(out, x, matrix, 3, inDim, outDim);
    expect([...out.subarray(0, outDim)].every(Number.isNaN)).toBe(true);
    expect([...out.subarray(2 * outDim)].every(Number.isNaN)).toBe(true);
    const middle = new Float32Array(outDim);
    kernels.matmulQuantized(middle, x.subarray(inDim, 2 * inDim), matrix, 1, inDim, outDim);
    expect(bitsOf(out.subarray(outDim, 2 * outDim))).toEqual(bitsOf(middle));
  });
});
