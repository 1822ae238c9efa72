import { dequantizeRows } from '@reward-lens/spec/internal';
import { isQuantized, type WeightMatrix } from '../model/weight-matrix.js';
import type { KernelSet } from './kernel-set.js';

/** Weight rows dequantized at a time by the generic path: a block of about 256 KiB. */
const DEQUANTIZED_BLOCK_BYTES = 256 * 1024;

/**
 * `out[rows, outDim] = x[rows, inDim] · wᵀ (+ bias)` for a float32 or a quantized `w`: the set's
 * `matmulQuantized` where it has one, else blocks of `w`'s rows dequantized and multiplied on
 * `matmulTransposed`. Either way each output is the set's float32 product over the dequantized
 * weights, so a row's result depends on that row alone.
 */
export function linear(
  kernels: KernelSet,
  out: Float32Array,
  x: Float32Array,
  w: WeightMatrix,
  rows: number,
  inDim: number,
  outDim: number,
  bias?: Float32Array,
): void {
  if (!isQuantized(w)) {
    kernels.matmulTransposed(out, x, w, rows, inDim, outDim, bias);
    return;
  }
  if (kernels.matmulQuantized) {
    kernels.matmulQuantized(out, x, w, rows, inDim, outDim, bias);
    return;
  }
  const blockRows = Math.max(1, Math.min(outDim, Math.floor(DEQUANTIZED_BLOCK_BYTES / (4 * inDim))));
  const weights = new Float32Array(blockRows * inDim);
  const partial = new Float32Array(rows * blockRows);
  for (let first = 0; first < outDim; first += blockRows) {
    const count = Math.min(blockRows, outDim - first);
    dequantizeRows(w, first, count, weights);
    kernels.matmulTransposed(partial, x, weights, rows, inDim, count, bias?.subarray(first, first + count));
    for (let row = 0; row < rows; row++) out.set(partial.subarray(row * count, (row + 1) * count), row * outDim + first);
  }
}
