import type { AttentionShape, KernelSet } from '../kernels/kernel-set.js';

export type { AttentionShape };

/**
 * Queries per block. A block's scores `[block, keys]` are the only buffer that grows with the
 * sequence, so memory stays linear in its length.
 */
const QUERY_BLOCK = 32;

/** Per-forward scratch, sized once for the longest row (past plus new tokens). */
export interface AttentionScratch {
  /** One kv head's keys, `[keys, headDim]`. */
  headKeys: Float32Array;
  /** One kv head's values transposed, `[headDim, keys]`, for the block in hand. */
  headValuesTransposed: Float32Array;
  /** One head's queries for a block, `[block, headDim]`. */
  blockQueries: Float32Array;
  /** Scores, then unnormalised probabilities, `[block, keys]`. */
  scores: Float32Array;
  /** Probability totals per query of the block. */
  totals: Float64Array;
  /** Unnormalised attention output of a block, `[block, headDim]`. */
  blockOutput: Float32Array;
}

export function createAttentionScratch(maxKeys: number, headDim: number): AttentionScratch {
  return {
    headKeys: new Float32Array(maxKeys * headDim),
    headValuesTransposed: new Float32Array(headDim * maxKeys),
    blockQueries: new Float32Array(QUERY_BLOCK * headDim),
    scores: new Float32Array(QUERY_BLOCK * maxKeys),
    totals: new Float64Array(QUERY_BLOCK),
    blockOutput: new Float32Array(QUERY_BLOCK * headDim),
  };
}

/**
 * Causal grouped-query attention for one row's new tokens.
 *
 * `queries` and `output` are `[tokens of the batch, numHeads * headDim]`; this row's tokens are
 * `tokenCount` rows from `queryStart`. `keys`/`values` are the row's cache buffers
 * `[length, numKvHeads * headDim]`, holding the `pastLength` cached tokens followed by this
 * row's new (rotated) keys. New token `t` attends keys `0..pastLength + t`.
 *
 * Both products run on the matmul kernel over per-head contiguous copies: scores
 * `Q·Kᵀ` for a block of queries (only the keys the block's last query sees), then `P·V` with
 * `V` transposed. Masked probabilities are exact zeros, so a query's output is the same
 * whichever block it falls in. The softmax subtracts the maximum and normalises after `P·V`
 * by a float64 total of the same float32 probabilities the product used.
 *
 * A kernel set with its own `attendRow` (the WebAssembly one) runs the whole of it instead.
 */
export function attendRow(
  kernels: KernelSet,
  shape: AttentionShape,
  queries: Float32Array,
  output: Float32Array,
  queryStart: number,
  tokenCount: number,
  pastLength: number,
  keys: Float32Array,
  values: Float32Array,
  scratch: AttentionScratch,
): void {
  if (kernels.attendRow) {
    kernels.attendRow(shape, queries, output, queryStart, tokenCount, pastLength, keys, values);
    return;
  }
  const { numHeads, numKvHeads, headDim } = shape;
  const queryWidth = numHeads * headDim;
  const keyWidth = numKvHeads * headDim;
  const headsPerKvHead = numHeads / numKvHeads;
  const scale = 1 / Math.sqrt(headDim);
  const { headKeys, headValuesTransposed, blockQueries, scores, totals, blockOutput } = scratch;
  const totalKeys = pastLength + tokenCount;

  for (let kvHead = 0; kvHead < numKvHeads; kvHead++) {
    const kvOffset = kvHead * headDim;
    for (let key = 0; key < totalKeys; key++) {
      headKeys.set(keys.subarray(key * keyWidth + kvOffset, key * keyWidth + kvOffset + headDim), key * headDim);
    }
    for (let blockStart = 0; blockStart < tokenCount; blockStart += QUERY_BLOCK) {
      const blockSize = Math.min(QUERY_BLOCK, tokenCount - blockStart);
      const keyCount = pastLength + blockStart + blockSize;
      for (let index = 0; index < headDim; index++) {
        for (let key = 0; key < keyCount; key++) headValuesTransposed[index * keyCount + key] = values[key * keyWidth + kvOffset + index]!;
      }
      for (let head = kvHead * headsPerKvHead; head < (kvHead + 1) * headsPerKvHead; head++) {
        for (let query = 0; query < blockSize; query++) {
          const source = (queryStart + blockStart + query) * queryWidth + head * headDim;
          blockQueries.set(queries.subarray(source, source + headDim), query * headDim);
        }
        kernels.matmulTransposed(scores, blockQueries, headKeys, blockSize, headDim, keyCount);
        for (let query = 0; query < blockSize; query++) {
          totals[query] = softmaxNumerators(scores, query * keyCount, keyCount, pastLength + blockStart + query + 1, scale);
        }
        kernels.matmulTransposed(blockOutput, scores, headValuesTransposed, blockSize, keyCount, headDim);
        for (let query = 0; query < blockSize; query++) {
          const target = (queryStart + blockStart + query) * queryWidth + head * headDim;
          const inverseTotal = 1 / totals[query]!;
          for (let index = 0; index < headDim; index++) output[target + index] = blockOutput[query * headDim + index]! * inverseTotal;
        }
      }
    }
  }
}

/**
 * Replaces the first `visible` raw scores of a row with `exp(scale * (score - max))` (rounded
 * to float32) and the rest, up to `keyCount`, with zeros. Returns the sum of the stored values.
 */
function softmaxNumerators(scores: Float32Array, offset: number, keyCount: number, visible: number, scale: number): number {
  let maximum = -Infinity;
  for (let key = 0; key < visible; key++) maximum = Math.max(maximum, scores[offset + key]!);
  let total = 0;
  for (let key = 0; key < visible; key++) {
    const numerator = Math.fround(Math.exp((scores[offset + key]! - maximum) * scale));
    scores[offset + key] = numerator;
    total += numerator;
  }
  scores.fill(0, offset + visible, offset + keyCount);
  return total;
}
