import { ATTENTION_QUERY_BLOCK } from '../shaders/attention.js';
import type { DecoderConfig, ForwardRequestV1, ReadRequestV1, ReadResultV1 } from '@reward-lens/spec';

/** One row's real tokens among the packed tokens of the batch. */
export interface RowPlan {
  /** Packed index of the row's first real token. */
  start: number;
  count: number;
  /** Cached tokens before the row's first new token (its position id). */
  pastLength: number;
}

/** A read resolved against the packed tokens: which tokens, after how many layers, where its values go. */
export interface ReadPlan {
  request: ReadRequestV1;
  /** Layers run before the read (0 = embeddings). A head read applies the final norm and the head there. */
  layer: number;
  /** Packed token index of every requested position, row after row. */
  tokenIndices: Uint32Array;
  /** Requested positions per row. */
  counts: number[];
  /** Values per position. */
  width: number;
  /** Where the read's values start in the result buffer, in floats. */
  resultOffset: number;
}

/**
 * A validated request laid out for the GPU. Padding cells are dropped: every real token of the
 * batch gets a packed index, so no kernel ever sees padding and a row's results do not depend
 * on its neighbours or on which side it is padded.
 */
export interface ForwardPlan {
  /** Real tokens in the batch. */
  tokens: number;
  /** Token id per packed token. */
  inputIds: Uint32Array;
  /** `[row, position id]` per packed token. */
  tokenInfo: Uint32Array;
  rows: RowPlan[];
  /** Attention query blocks: `[row, first packed token, count]` each, up to {@link ATTENTION_QUERY_BLOCK} tokens of one row. */
  queryBlocks: Uint32Array;
  /** The longest row, past included: the per-row capacity of the attention cache (at least 1). */
  rowCapacity: number;
  reads: ReadPlan[];
  /** Decoder layers to run: as deep as the deepest read, or all of them when caches are returned. */
  layersToRun: number;
  /** Floats in the result buffer (all reads, back to back). */
  resultLength: number;
}

/** Lays out a request that `validateForwardRequest` accepted; `pastLengths[row]` is 0 without a cache. */
export function planForward(
  request: ForwardRequestV1,
  pastLengths: readonly number[],
  config: DecoderConfig,
  headWidthOf: (head: string) => number,
): ForwardPlan {
  const { batchSize, sequenceLength, inputIds, attentionMask } = request;
  const packedIndex = new Int32Array(batchSize * sequenceLength).fill(-1);
  const ids: number[] = [];
  const tokenInfo: number[] = [];
  const rows: RowPlan[] = [];
  let rowCapacity = 1;
  for (let row = 0; row < batchSize; row++) {
    const start = ids.length;
    const pastLength = pastLengths[row] ?? 0;
    for (let column = 0; column < sequenceLength; column++) {
      const cell = row * sequenceLength + column;
      if (attentionMask[cell] === 0) continue;
      packedIndex[cell] = ids.length;
      tokenInfo.push(row, pastLength + ids.length - start);
      ids.push(inputIds[cell]!);
    }
    rows.push({ start, count: ids.length - start, pastLength });
    rowCapacity = Math.max(rowCapacity, pastLength + ids.length - start);
  }

  let resultLength = 0;
  const reads = request.reads.map((read): ReadPlan => {
    const counts = read.positions.map((positions) => positions.length);
    const tokenIndices = new Uint32Array(counts.reduce((sum, count) => sum + count, 0));
    let next = 0;
    read.positions.forEach((positions, row) => {
      for (const position of positions) tokenIndices[next++] = packedIndex[row * sequenceLength + position]!;
    });
    const width = read.kind === 'hidden' ? config.hiddenSize : (read.columns?.length ?? headWidthOf(read.head));
    const layer = read.kind === 'hidden' ? read.layer : (read.layer ?? config.numLayers);
    const resultOffset = resultLength;
    resultLength += tokenIndices.length * width;
    return { request: read, layer, tokenIndices, counts, width, resultOffset };
  });
  const queryBlocks: number[] = [];
  rows.forEach((row, index) => {
    for (let offset = 0; offset < row.count; offset += ATTENTION_QUERY_BLOCK) {
      queryBlocks.push(index, row.start + offset, Math.min(ATTENTION_QUERY_BLOCK, row.count - offset));
    }
  });
  const deepestRead = reads.reduce((deepest, read) => Math.max(deepest, read.layer), 0);
  return {
    tokens: ids.length,
    inputIds: Uint32Array.from(ids),
    tokenInfo: Uint32Array.from(tokenInfo),
    rows,
    queryBlocks: Uint32Array.from(queryBlocks),
    rowCapacity,
    reads,
    layersToRun: request.returnCache === true ? config.numLayers : deepestRead,
    resultLength,
  };
}

/** Splits the read-back result buffer into each read's per-row arrays. */
export function splitResults(plan: ForwardPlan, results: Float32Array): ReadResultV1[] {
  return plan.reads.map((read) => {
    let offset = read.resultOffset;
    const values = read.counts.map((count) => {
      const length = count * read.width;
      const slice = results.slice(offset, offset + length);
      offset += length;
      return slice;
    });
    return { width: read.width, values };
  });
}
