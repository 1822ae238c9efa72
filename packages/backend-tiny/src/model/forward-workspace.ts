import type { DecoderConfig } from '@reward-lens/core';
import type { KvStorage } from '../kv-cache.js';
import { createAttentionScratch, type AttentionScratch } from './attention.js';
import { createMlpScratch, type MlpScratch } from './mlp.js';

/** One row's real tokens inside the batch-wide token buffers. */
export interface RowSegment {
  /** Index of the row's first real token among all real tokens of the batch. */
  start: number;
  count: number;
  /** Cached tokens before this row's first token (the position id of that token). */
  pastLength: number;
  /** Holds the past and receives this row's keys and values at `pastLength..`. */
  storage: KvStorage;
}

/**
 * Buffers of one forward pass, allocated once for it. All real tokens of the batch are packed
 * into `[tokens, width]` buffers (padding cells never enter); only attention looks at rows.
 */
export interface ForwardWorkspace {
  tokens: number;
  /** The residual stream `[tokens, hidden]`. */
  hidden: Float32Array;
  /** A normed copy of the stream fed to attention or the MLP `[tokens, hidden]`. */
  normed: Float32Array;
  /** Attention or MLP output before the residual add `[tokens, hidden]`. */
  projected: Float32Array;
  queries: Float32Array;
  keys: Float32Array;
  values: Float32Array;
  attentionOutput: Float32Array;
  positionIds: Int32Array;
  rows: RowSegment[];
  attention: AttentionScratch;
  mlp: MlpScratch;
}

export function createForwardWorkspace(config: DecoderConfig, rows: RowSegment[], positionIds: Int32Array): ForwardWorkspace {
  const tokens = positionIds.length;
  const { hiddenSize, numHeads, numKvHeads, headDim } = config;
  const longestRow = rows.reduce((longest, row) => Math.max(longest, row.pastLength + row.count), 1);
  return {
    tokens,
    hidden: new Float32Array(tokens * hiddenSize),
    normed: new Float32Array(tokens * hiddenSize),
    projected: new Float32Array(tokens * hiddenSize),
    queries: new Float32Array(tokens * numHeads * headDim),
    keys: new Float32Array(tokens * numKvHeads * headDim),
    values: new Float32Array(tokens * numKvHeads * headDim),
    attentionOutput: new Float32Array(tokens * numHeads * headDim),
    positionIds,
    rows,
    attention: createAttentionScratch(longestRow, headDim),
    mlp: createMlpScratch(tokens, config.intermediateSize),
  };
}
