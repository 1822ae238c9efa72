import type { QuantizedTensorV1 } from '@reward-lens/spec';
import { expect } from 'vitest';
import type { KernelSet } from '../../src/kernels/kernel-set.js';

const bitsOf = (values: Float32Array) => [...new Uint32Array(values.buffer, values.byteOffset, values.length)];

/** Each row of `x` gives the same output bits through `kernels.matmulQuantized` alone as among all `rows` (the kernel set's contract). */
export function expectRowsAlone(kernels: KernelSet, x: Float32Array, matrix: QuantizedTensorV1, rows: number): void {
  const { rows: outDim, columns: inDim } = matrix;
  const together = new Float32Array(rows * outDim);
  kernels.matmulQuantized!(together, x, matrix, rows, inDim, outDim);
  for (let row = 0; row < rows; row++) {
    const alone = new Float32Array(outDim);
    kernels.matmulQuantized!(alone, x.subarray(row * inDim, (row + 1) * inDim), matrix, 1, inDim, outDim);
    expect(bitsOf(alone), `row ${row} of ${rows}`).toEqual(bitsOf(together.subarray(row * outDim, (row + 1) * outDim)));
  }
}
