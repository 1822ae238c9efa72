import type { AttentionShape } from '../kernel-set.js';
import type { KernelModuleExports } from './kernel-module.js';
import { matmulColumnBlock, matmulRowBlock } from './matmul-simd.js';
import { GEMM_ROW_BLOCK, gemmDepthBlock } from './matmul-untransposed-simd.js';
import type { WasmHeap } from './wasm-heap.js';

/**
 * Backpropagation through causal grouped-query attention for one row's tokens, in the kernel
 * module: the row's rotated queries and keys, values and output gradient are copied in once;
 * per head, `P = softmax(scale·Q·Kᵀ)` is recomputed (`matmul`, `softmaxRows`, masked), then
 * `dP = dO·Vᵀ`, `dV += Pᵀ·dO`, `dS = scale·P⊙(dP - rowsum(P⊙dP))`, `dQ = dS·K`,
 * `dK += dSᵀ·Q`, all on module memory; the query, key and value gradients are copied out once
 * into rows `start..start + count` of the packed `[tokens, width]` arrays (overwritten).
 */
export function attentionBackwardInWasm(
  heap: WasmHeap,
  kernels: KernelModuleExports,
  shape: AttentionShape,
  queries: Float32Array,
  keys: Float32Array,
  values: Float32Array,
  dOutput: Float32Array,
  dQueries: Float32Array,
  dKeys: Float32Array,
  dValues: Float32Array,
  start: number,
  count: number,
): void {
  if (count === 0) return;
  const { numHeads, numKvHeads, headDim } = shape;
  const queryWidth = numHeads * headDim;
  const keyWidth = numKvHeads * headDim;
  const headsPerKvHead = numHeads / numKvHeads;
  const scale = 1 / Math.sqrt(headDim);

  const [q, k, v, dO, dQ, dK, dV, p, dS] = heap.scratch([
    count * queryWidth,
    count * keyWidth,
    count * keyWidth,
    count * queryWidth,
    count * queryWidth,
    count * keyWidth,
    count * keyWidth,
    count * count,
    count * count,
  ]) as [number, number, number, number, number, number, number, number, number];
  heap.write(q, queries.subarray(start * queryWidth, (start + count) * queryWidth));
  heap.write(k, keys.subarray(start * keyWidth, (start + count) * keyWidth));
  heap.write(v, values.subarray(start * keyWidth, (start + count) * keyWidth));
  heap.write(dO, dOutput.subarray(start * queryWidth, (start + count) * queryWidth));
  heap.floats.fill(0, dK / 4, dK / 4 + count * keyWidth);
  heap.floats.fill(0, dV / 4, dV / 4 + count * keyWidth);

  const square = count * 4;
  const rowBlock = matmulRowBlock(headDim);
  const columnBlock = matmulColumnBlock(headDim);
  const depthBlock = gemmDepthBlock(headDim);
  for (let head = 0; head < numHeads; head++) {
    const queryOffset = head * headDim * 4;
    const kvOffset = Math.floor(head / headsPerKvHead) * headDim * 4;
    kernels.matmul(p, q + queryOffset, k + kvOffset, 0, count, headDim, count, square, queryWidth * 4, keyWidth * 4, rowBlock, columnBlock);
    kernels.softmaxRows(p, count, square, 1, scale);
    kernels.maskAboveDiagonal(p, count, square);
    kernels.matmul(dS, dO + queryOffset, v + kvOffset, 0, count, headDim, count, square, queryWidth * 4, keyWidth * 4, rowBlock, columnBlock);
    // dV += Pᵀ·dO (a sum over the queries), then dS from dP, dQ = dS·K, dK += dSᵀ·Q.
    kernels.gemm(dV + kvOffset, p, dO + queryOffset, count, count, headDim, 4, square, queryWidth * 4, keyWidth * 4, 1, depthBlock, GEMM_ROW_BLOCK);
    kernels.causalSoftmaxBackward(dS, p, count, square, scale);
    kernels.gemm(dQ + queryOffset, dS, k + kvOffset, count, count, headDim, square, 4, keyWidth * 4, queryWidth * 4, 0, depthBlock, GEMM_ROW_BLOCK);
    kernels.gemm(dK + kvOffset, dS, q + queryOffset, count, count, headDim, 4, square, queryWidth * 4, keyWidth * 4, 1, depthBlock, GEMM_ROW_BLOCK);
  }
  heap.read(dQ, count * queryWidth, dQueries, start * queryWidth);
  heap.read(dK, count * keyWidth, dKeys, start * keyWidth);
  heap.read(dV, count * keyWidth, dValues, start * keyWidth);
}
