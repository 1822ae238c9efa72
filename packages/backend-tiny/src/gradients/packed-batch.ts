import type { ForwardRequestV1, ReadRequestV1 } from '@reward-lens/spec';
import type { TokenSpan } from './attention-dual.js';
import type { DecoderParameters } from './decoder-parameters.js';
import type { DifferentiableHead } from './differentiable-head.js';

/**
 * A request's real tokens packed together, row after row (padding never enters), as the
 * forward pass packs them: position ids count real tokens from 0 in each row.
 */
export interface PackedBatch {
  tokens: number;
  ids: Int32Array;
  positionIds: Int32Array;
  spans: TokenSpan[];
  /** Per cell of the padded batch, its packed token index, or -1 for padding. */
  packedIndex: Int32Array;
}

export function packBatch(request: ForwardRequestV1): PackedBatch {
  const { batchSize, sequenceLength, inputIds, attentionMask } = request;
  const packedIndex = new Int32Array(batchSize * sequenceLength).fill(-1);
  const ids: number[] = [];
  const positionIds: number[] = [];
  const spans: TokenSpan[] = [];
  for (let row = 0; row < batchSize; row++) {
    const start = ids.length;
    for (let column = 0; column < sequenceLength; column++) {
      const cell = row * sequenceLength + column;
      if (attentionMask[cell] === 0) continue;
      packedIndex[cell] = ids.length;
      positionIds.push(ids.length - start);
      ids.push(inputIds[cell]!);
    }
    spans.push({ start, count: ids.length - start });
  }
  return { tokens: ids.length, ids: Int32Array.from(ids), positionIds: Int32Array.from(positionIds), spans, packedIndex };
}

/** A read resolved against the packed batch. */
export interface PlannedRead {
  request: ReadRequestV1;
  /** Layers run before the read (0 = embeddings). */
  layer: number;
  /** Packed token indices of every requested position, row after row. */
  tokenIndices: Int32Array;
  /** Requested positions per row. */
  counts: number[];
  width: number;
  /** The head, for a head read. */
  head: DifferentiableHead | undefined;
}

/** Resolves each (validated) read's positions to packed tokens. */
export function planReads(reads: readonly ReadRequestV1[], batch: PackedBatch, sequenceLength: number, parameters: DecoderParameters): PlannedRead[] {
  const { numLayers, hiddenSize } = parameters.config;
  return reads.map((request) => {
    const counts = request.positions.map((positions) => positions.length);
    const tokenIndices = new Int32Array(counts.reduce((sum, count) => sum + count, 0));
    let next = 0;
    request.positions.forEach((positions, row) => {
      for (const position of positions) tokenIndices[next++] = batch.packedIndex[row * sequenceLength + position]!;
    });
    if (request.kind === 'hidden') return { request, layer: request.layer, tokenIndices, counts, width: hiddenSize, head: undefined };
    const head = parameters.heads.get(request.head)!;
    return { request, layer: request.layer ?? numLayers, tokenIndices, counts, width: request.columns?.length ?? head.width, head };
  });
}

/** Splits a read's packed `[positions, width]` values into per-row arrays. */
export function splitByRow(values: Float32Array, counts: readonly number[], width: number): Float32Array[] {
  let offset = 0;
  return counts.map((count) => {
    const rowValues = values.slice(offset * width, (offset + count) * width);
    offset += count;
    return rowValues;
  });
}

/** The inverse of `splitByRow`. */
export function joinRows(rows: readonly Float32Array[], total: number): Float32Array {
  const joined = new Float32Array(total);
  let offset = 0;
  for (const values of rows) {
    joined.set(values, offset);
    offset += values.length;
  }
  return joined;
}
