import { createSeededRandom } from '@reward-lens/spec';
import { describe, expect, it } from 'vitest';
import { scalarKernels, type KernelSet } from './kernel-set.js';
import { createWasmSimdKernels } from './wasm/wasm-simd-kernels.js';

// The backward products of every kernel set that has them: the scalar one and the WebAssembly SIMD one.
const kernelSets: [string, () => KernelSet][] = [
  ['scalar', () => scalarKernels],
  ['wasm-simd', createWasmSimdKernels],
];

function randomArray(length: number, seed: number): Float32Array {
  const random = createSeededRandom(seed);
  return Float32Array.from({ length }, () => random() * 2 - 1);
}

/** Checks `out[m, n] = start[m, n] + Σ_k a(m, k)·b[k, n]` against float64 within float32 accumulation's bound. */
function expectProduct(
  out: Float32Array,
  start: Float32Array | undefined,
  a: (m: number, k: number) => number,
  b: Float32Array,
  rows: number,
  depth: number,
  columns: number,
): void {
  for (let m = 0; m < rows; m++) {
    for (let n = 0; n < columns; n++) {
      let expected = start ? start[m * columns + n]! : 0;
      let magnitude = Math.abs(expected);
      for (let k = 0; k < depth; k++) {
        expected += a(m, k) * b[k * columns + n]!;
        magnitude += Math.abs(a(m, k) * b[k * columns + n]!);
      }
      const error = Math.abs(out[m * columns + n]! - expected);
      if (!(error <= (depth + 2) * 2 ** -24 * magnitude)) expect.fail(`output [${m}, ${n}] is ${out[m * columns + n]}, expected ${expected}`);
    }
  }
}

const shapes: [number, number, number][] = [
  [1, 1, 1],
  [5, 7, 3],
  [17, 33, 9],
  [4, 8, 8],
  [70, 13, 21],
  [9, 300, 12],
];

describe.each(kernelSets)('%s kernels: backward products', (_, createKernels) => {
  it.each(shapes)('matmul x·w matches float64 for %i rows, in %i, out %i, fresh and accumulating', (rows, inDim, outDim) => {
    const kernels = createKernels();
    const x = randomArray(rows * inDim, 1);
    const w = randomArray(inDim * outDim, 2);
    const start = randomArray(rows * outDim, 3);
    const fresh = new Float32Array(rows * outDim).fill(Number.NaN);
    kernels.matmul!(fresh, x, w, rows, inDim, outDim);
    expectProduct(fresh, undefined, (m, k) => x[m * inDim + k]!, w, rows, inDim, outDim);
    const accumulated = start.slice();
    kernels.matmul!(accumulated, x, w, rows, inDim, outDim, true);
    expectProduct(accumulated, start, (m, k) => x[m * inDim + k]!, w, rows, inDim, outDim);
  });

  it.each(shapes)('matmulTransposedLeft aᵀ·b matches float64 for %i rows, a %i, b %i, fresh and accumulating', (rows, aDim, bDim) => {
    const kernels = createKernels();
    const a = randomArray(rows * aDim, 4);
    const b = randomArray(rows * bDim, 5);
    const start = randomArray(aDim * bDim, 6);
    const fresh = new Float32Array(aDim * bDim).fill(Number.NaN);
    kernels.matmulTransposedLeft!(fresh, a, b, rows, aDim, bDim);
    expectProduct(fresh, undefined, (m, k) => a[k * aDim + m]!, b, aDim, rows, bDim);
    const accumulated = start.slice();
    kernels.matmulTransposedLeft!(accumulated, a, b, rows, aDim, bDim, true);
    expectProduct(accumulated, start, (m, k) => a[k * aDim + m]!, b, aDim, rows, bDim);
  });

  it('gives an output row the same bits whatever rows surround it', () => {
    const kernels = createKernels();
    const [inDim, outDim] = [37, 19];
    const w = randomArray(inDim * outDim, 7);
    const x = randomArray(9 * inDim, 8);
    const alone = new Float32Array(outDim);
    kernels.matmul!(alone, x.subarray(4 * inDim, 5 * inDim), w, 1, inDim, outDim);
    for (let rows = 5; rows <= 9; rows++) {
      const out = new Float32Array(rows * outDim);
      kernels.matmul!(out, x, w, rows, inDim, outDim);
      expect([...out.subarray(4 * outDim, 5 * outDim)]).toEqual([...alone]);
    }
  });

  it('reads prepared weights and sees them again after refreshWeights', () => {
    const kernels = createKernels();
    const w = randomArray(6 * 5, 9);
    kernels.prepareWeights?.(w);
    const x = randomArray(3 * 6, 10);
    const before = new Float32Array(15);
    kernels.matmul!(before, x, w, 3, 6, 5);
    w[0] = w[0]! + 1;
    kernels.refreshWeights?.(w);
    const after = new Float32Array(15);
    kernels.matmul!(after, x, w, 3, 6, 5);
    expectProduct(after, undefined, (m, k) => x[m * 6 + k]!, w, 3, 6, 5);
    expect(after[0]).not.toBe(before[0]);
  });
});
