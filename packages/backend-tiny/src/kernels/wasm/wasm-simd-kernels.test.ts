import { createSeededRandom } from '@reward-lens/spec';
import { describe, expect, it } from 'vitest';
import { attendRow, createAttentionScratch } from '../../model/attention.js';
import { relativeError } from '../../../test/support/requests.js';
import { scalarKernels, type AttentionShape } from '../kernel-set.js';
import { createWasmSimdKernels, createWasmSimdKernelsAsync, wasmSimdUnavailableReason, wasmSimdUnavailableReasonAsync } from './wasm-simd-kernels.js';

function randomArray(length: number, seed: number, scale = 1): Float32Array {
  const random = createSeededRandom(seed);
  return Float32Array.from({ length }, () => (random() * 2 - 1) * scale);
}

const bitsOf = (values: Float32Array) => [...new Uint32Array(values.buffer, values.byteOffset, values.length)];

describe('WebAssembly SIMD kernels', () => {
  it('are available on the Node versions the package supports, synchronously and asynchronously', async () => {
    expect(wasmSimdUnavailableReason()).toBeNull();
    expect(await wasmSimdUnavailableReasonAsync()).toBeNull();
  });

  it('give the same bits whether instantiated synchronously or asynchronously', async () => {
    const [rows, inDim, outDim] = [5, 37, 11];
    const x = randomArray(rows * inDim, 1);
    const w = randomArray(outDim * inDim, 2);
    const bias = randomArray(outDim, 3);
    const product = (kernels: typeof scalarKernels) => {
      const out = new Float32Array(rows * outDim);
      kernels.matmulTransposed(out, x, w, rows, inDim, outDim, bias);
      return bitsOf(out);
    };
    const asynchronous = await createWasmSimdKernelsAsync();
    expect(asynchronous.name).toBe('wasm-simd');
    expect(product(asynchronous)).toEqual(product(createWasmSimdKernels()));
  });

  it('gatedSilu matches silu(gate)·up in float64 and gives an element the same bits at any index', () => {
    const kernels = createWasmSimdKernels();
    for (const count of [1, 3, 4, 13, 64]) {
      const gate = randomArray(count, count, 20);
      const up = randomArray(count, count + 1, 3);
      const result = gate.slice();
      kernels.gatedSilu!(result, up, count);
      const expected = Array.from(gate, (value, index) => (value / (1 + Math.exp(-value))) * up[index]!);
      expect(relativeError(result, expected)).toBeLessThan(1e-6);
      // The last element (in the scalar tail when count % 4 ≠ 0) computed alone.
      const alone = gate.slice(count - 1);
      kernels.gatedSilu!(alone, up.slice(count - 1), 1);
      expect(bitsOf(alone)).toEqual(bitsOf(result.subarray(count - 1)));
    }
  });

  describe.each([
    { numHeads: 4, numKvHeads: 2, headDim: 8 },
    { numHeads: 3, numKvHeads: 3, headDim: 6 },
    { numHeads: 2, numKvHeads: 1, headDim: 20 },
  ])('attendRow, $numHeads heads / $numKvHeads kv heads of $headDim', (shape: AttentionShape) => {
    const { numHeads, numKvHeads, headDim } = shape;
    const tokens = 70;
    const queryStart = 3;
    const queries = randomArray((queryStart + tokens) * numHeads * headDim, 1, 2);
    const keys = randomArray(tokens * numKvHeads * headDim, 2, 2);
    const values = randomArray(tokens * numKvHeads * headDim, 3);

    /** Attention of the row's tokens `pastLength..tokens-1`, the earlier ones cached. */
    function attend(kernels: typeof scalarKernels, pastLength: number): Float32Array {
      const output = new Float32Array(queries.length).fill(Number.NaN);
      const scratch = createAttentionScratch(tokens, headDim);
      const start = queryStart + pastLength;
      attendRow(kernels, shape, queries, output, start, tokens - pastLength, pastLength, keys, values, scratch);
      return output.subarray(start * numHeads * headDim);
    }

    it('matches the model attention on the scalar kernels', () => {
      const expected = attend(scalarKernels, 0);
      expect(relativeError(attend(createWasmSimdKernels(), 0), expected)).toBeLessThan(1e-6);
    });

    it('gives a token the same bits whichever block of queries it falls in (after a cached past)', () => {
      const kernels = createWasmSimdKernels();
      const full = attend(kernels, 0);
      for (const pastLength of [1, 5, 33, 69]) {
        expect(bitsOf(attend(kernels, pastLength))).toEqual(bitsOf(full.subarray(pastLength * numHeads * headDim)));
      }
    });
  });
});
