import type { AttentionShape } from '../kernel-set.js';
import type { KernelModuleExports } from './kernel-module.js';
import { matmulColumnBlock, matmulRowBlock } from './matmul-simd.js';
import type { WasmHeap } from './wasm-heap.js';

/**
 * Queries per block: the scores of a block, `[block, keys]`, are computed for the keys its last
 * query sees, so a larger block wastes more of the masked triangle; a smaller one makes more
 * calls. A query's result does not depend on its block (see `attendValues`).
 */
const QUERY_BLOCK = 32;

/**
 * Causal grouped-query attention for one row's new tokens, in the kernel module: the arguments
 * and the meaning of the model's `attendRow`. The row's queries, keys and values are copied in
 * once; per head and block of queries, `Q·Kᵀ` runs on the matmul kernel straight from the
 * strided head slices, then a float32 softmax over each query's visible keys, then
 * `attendValues` sums the visible values. The outputs are copied out once.
 */
export function attendRowInWasm(
  heap: WasmHeap,
  kernels: KernelModuleExports,
  shape: AttentionShape,
  queries: Float32Array,
  output: Float32Array,
  queryStart: number,
  tokenCount: number,
  pastLength: number,
  keys: Float32Array,
  values: Float32Array,
): void {
  if (tokenCount === 0) return;
  const { numHeads, numKvHeads, headDim } = shape;
  const queryWidth = numHeads * headDim;
  const keyWidth = numKvHeads * headDim;
  const headsPerKvHead = numHeads / numKvHeads;
  const totalKeys = pastLength + tokenCount;
  const scale = 1 / Math.sqrt(headDim);

  const [queryAddress, keyAddress, valueAddress, scoreAddress, outputAddress] = heap.scratch([
    tokenCount * queryWidth,
    totalKeys * keyWidth,
    totalKeys * keyWidth,
    Math.min(QUERY_BLOCK, tokenCount) * totalKeys,
    tokenCount * queryWidth,
  ]) as [number, number, number, number, number];
  heap.write(queryAddress, queries.subarray(queryStart * queryWidth, (queryStart + tokenCount) * queryWidth));
  heap.write(keyAddress, keys, totalKeys * keyWidth);
  heap.write(valueAddress, values, totalKeys * keyWidth);

  const rowBlock = matmulRowBlock(headDim);
  const columnBlock = matmulColumnBlock(headDim);
  for (let head = 0; head < numHeads; head++) {
    const kvOffset = Math.floor(head / headsPerKvHead) * headDim * 4;
    for (let blockStart = 0; blockStart < tokenCount; blockStart += QUERY_BLOCK) {
      const blockSize = Math.min(QUERY_BLOCK, tokenCount - blockStart);
      const keyCount = pastLength + blockStart + blockSize;
      const firstVisible = pastLength + blockStart + 1;
      const blockOffset = (blockStart * queryWidth + head * headDim) * 4;
      kernels.matmul(
        scoreAddress,
        queryAddress + blockOffset,
        keyAddress + kvOffset,
        0,
        blockSize,
        headDim,
        keyCount,
        keyCount * 4,
        queryWidth * 4,
        keyWidth * 4,
        rowBlock,
        columnBlock,
      );
      kernels.softmaxRows(scoreAddress, blockSize, keyCount * 4, firstVisible, scale);
      kernels.attendValues(
        outputAddress + blockOffset,
        scoreAddress,
        valueAddress + kvOffset,
        blockSize,
        firstVisible,
        keyCount * 4,
        keyWidth * 4,
        queryWidth * 4,
        headDim,
      );
    }
  }
  heap.read(outputAddress, tokenCount * queryWidth, output, queryStart * queryWidth);
}
