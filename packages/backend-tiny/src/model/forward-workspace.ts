import type { DecoderConfig } from '@reward-lens/spec';
import { createAttentionScratch, type AttentionScratch } from './attention.js';
import { createMlpScratch, type MlpScratch } from './mlp.js';

/**
 * One row's tokens within a slice of the packed batch: where they sit in the slice, and the
 * row's key/value cache buffers (per layer, `[capacity, numKvHeads * headDim]`), which hold the
 * row's tokens before the slice's and receive the slice's.
 */
export interface SliceRow {
  /** Index of the row's first token in the slice among the slice's tokens. */
  localStart: number;
  count: number;
  /** Tokens of the row before its first token in the slice (cached ones included): that token's cache position. */
  pastLength: number;
  keys: Float32Array[];
  values: Float32Array[];
}

/**
 * Buffers of one thread's part of a forward pass, allocated once for it. The slice's real
 * tokens are packed into `[tokens, width]` buffers (padding cells never enter); only attention
 * looks at rows.
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
  rows: readonly SliceRow[];
  attention: AttentionScratch;
  mlp: MlpScratch;
}

export function createForwardWorkspace(config: DecoderConfig, rows: readonly SliceRow[], positionIds: Int32Array): ForwardWorkspace {
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
