import type { KernelSet } from '../kernels/kernel-set.js';
import type { HeadWeights } from './decoder-weights.js';
import { rmsNorm } from './rms-norm.js';

/**
 * Applies the final norm (RMSNorm with `model.norm.weight`), the head's hidden layer when it has
 * one (`relu(W·x + b)`), and then the head's projection to chosen tokens
 * of a residual stream. Only those tokens are projected, and with `columns` only those rows
 * of the head matrix: an `lm` head over a large vocabulary costs `columns.length` dot products
 * per token, not the vocabulary.
 *
 * Returns `[tokenIndices.length, columns?.length ?? head.width]`, token-major.
 */
export function applyHead(
  kernels: KernelSet,
  head: HeadWeights,
  finalNorm: Float32Array,
  eps: number,
  stream: Float32Array,
  hiddenSize: number,
  tokenIndices: Int32Array,
  columns: readonly number[] | undefined,
): Float32Array {
  const count = tokenIndices.length;
  const normed = new Float32Array(count * hiddenSize);
  for (let index = 0; index < count; index++) {
    rmsNorm(normed, index * hiddenSize, stream, tokenIndices[index]! * hiddenSize, finalNorm, 1, hiddenSize, eps);
  }
  let input = normed;
  if (head.hiddenLayer) {
    input = new Float32Array(count * hiddenSize);
    kernels.matmulTransposed(input, normed, head.hiddenLayer.weight, count, hiddenSize, hiddenSize, head.hiddenLayer.bias);
    for (let index = 0; index < input.length; index++) if (input[index]! < 0) input[index] = 0;
  }
  let weight = head.weight;
  let bias = head.bias;
  let width = head.width;
  if (columns !== undefined) {
    width = columns.length;
    weight = new Float32Array(width * hiddenSize);
    const selectedBias = head.bias ? new Float32Array(width) : undefined;
    columns.forEach((column, index) => {
      weight.set(head.weight.subarray(column * hiddenSize, (column + 1) * hiddenSize), index * hiddenSize);
      if (selectedBias) selectedBias[index] = head.bias![column]!;
    });
    bias = selectedBias;
  }
  const out = new Float32Array(count * width);
  kernels.matmulTransposed(out, input, weight, count, hiddenSize, width, bias);
  return out;
}
