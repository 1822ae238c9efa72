import { createSeededRandom } from '@reward-lens/spec';
import { describe, expect, it } from 'vitest';
import { scalarKernels, type KernelSet } from './kernel-set.js';
import { createWasmSimdKernels } from './wasm/wasm-simd-kernels.js';

// Every kernel set must pass these: the scalar one and the WebAssembly SIMD one.
const kernelSets: [string, () => KernelSet][] = [
  ['scalar', () => scalarKernels],
  ['wasm-simd', createWasmSimdKernels],
];

function randomArray(length: number, seed: number): Float32Array {
  const random = createSeededRandom(seed);
  return Float32Array.from({ length }, () => random() * 2 - 1);
}

const bitsOf = (values: Float32Array) => [...new Uint32Array(values.buffer, values.byteOffset, values.length)];

describe.each(kernelSets)('%s kernels: matmulTransposed', (_, createKernels) => {
  // Shapes off every tile and vector width: rows, in and out not multiples of 2 or 4.
  it.each([
    [1, 1, 1],
    [5, 7, 3],
    [17, 33, 9],
    [4, 8, 4],
    [70, 33, 9],
    [3, 64, 20],
  ])('matches a float64 reference for %i rows, in %i, out %i, with and without bias', (rows, inDim, outDim) => {
    const kernels = createKernels();
    const x = randomArray(rows * inDim, 1);
    const w = randomArray(outDim * inDim, 2);
    const bias = randomArray(outDim, 3);
    for (const withBias of [false, true]) {
      const out = new Float32Array(rows * outDim).fill(Number.NaN);
      kernels.matmulTransposed(out, x, w, rows, inDim, outDim, withBias ? bias : undefined);
      for (let row = 0; row < rows; row++) {
        for (let column = 0; column < outDim; column++) {
          let expected = withBias ? bias[column]! : 0;
          let magnitude = Math.abs(expected);
          for (let k = 0; k < inDim; k++) {
            expected += x[row * inDim + k]! * w[column * inDim + k]!;
            magnitude += Math.abs(x[row * inDim + k]! * w[column * inDim + k]!);
          }
          // The float32 accumulation bound: (terms + 1) roundings of 2^-24 on the magnitudes.
          expect(Math.abs(out[row * outDim + column]! - expected)).toBeLessThanOrEqual((inDim + 2) * 2 ** -24 * magnitude);
        }
      }
    }
  });

  it.each([
    [23, 11],
    [32, 8],
    [7, 3],
    // Rows of 1537 floats make the WebAssembly kernel's row blocks 2 rows long.
    [1537, 5],
  ])('gives a row the same bits alone and inside batches of 1..9 rows at every offset (in %i, out %i)', (inDim, outDim) => {
    const kernels = createKernels();
    const w = randomArray(outDim * inDim, 5);
    const bias = randomArray(outDim, 6);
    const row = randomArray(inDim, 7);
    for (const withBias of [undefined, bias]) {
      const alone = new Float32Array(outDim);
      kernels.matmulTransposed(alone, row, w, 1, inDim, outDim, withBias);
      for (let rows = 1; rows <= 9; rows++) {
        for (let offset = 0; offset < rows; offset++) {
          const x = randomArray(rows * inDim, 100 * rows + offset);
          x.set(row, offset * inDim);
          const out = new Float32Array(rows * outDim);
          kernels.matmulTransposed(out, x, w, rows, inDim, outDim, withBias);
          expect(bitsOf(out.subarray(offset * outDim, (offset + 1) * outDim))).toEqual(bitsOf(alone));
        }
      }
    }
  });

  it('gives the same bits with prepared weights, and after the working memory grew', () => {
    const kernels = createKernels();
    const [inDim, outDim] = [24, 6];
    const w = randomArray(outDim * inDim, 8);
    const bias = randomArray(outDim, 9);
    const x = randomArray(3 * inDim, 10);
    const before = new Float32Array(3 * outDim);
    kernels.matmulTransposed(before, x, w, 3, inDim, outDim, bias);
    kernels.prepareWeights?.(w);
    kernels.prepareWeights?.(bias);
    const large = randomArray(20_000 * inDim, 11);
    kernels.matmulTransposed(new Float32Array(20_000 * outDim), large, w, 20_000, inDim, outDim, bias);
    const after = new Float32Array(3 * outDim);
    kernels.matmulTransposed(after, x, w, 3, inDim, outDim, bias);
    expect(bitsOf(after)).toEqual(bitsOf(before));
  });

  it('reads only rows × in of x and writes only rows × out of out', () => {
    const kernels = createKernels();
    const w = randomArray(4 * 5, 12);
    const x = randomArray(3 * 5, 13);
    const out = new Float32Array(3 * 4 + 2).fill(7);
    kernels.matmulTransposed(out, x, w, 2, 5, 4);
    expect([...out.subarray(8)]).toEqual([7, 7, 7, 7, 7, 7]);
  });
});
