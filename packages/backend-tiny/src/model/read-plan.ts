import type { ReadRequestV1, ReadResultV1 } from '@reward-lens/core';
import type { KernelSet } from '../kernels/kernel-set.js';
import type { DecoderWeights } from './decoder-weights.js';
import { applyHead } from './heads.js';

/** A read resolved against the packed token buffers: which tokens, after which layer. */
export interface PlannedRead {
  request: ReadRequestV1;
  /** Layers run before the read: 0 = embeddings. A head read applies the final norm and head here. */
  layer: number;
  /** Packed token indices of every requested position, row after row. */
  tokenIndices: Int32Array;
  /** Requested positions per row. */
  counts: number[];
  result: ReadResultV1;
}

/**
 * Resolves each read's positions (indices into padded rows) to packed token indices.
 * `packedIndex[row * sequenceLength + column]` is the packed index of that cell's token;
 * the request was validated, so no requested cell is padding.
 */
export function planReads(reads: readonly ReadRequestV1[], packedIndex: Int32Array, sequenceLength: number, weights: DecoderWeights): PlannedRead[] {
  const { numLayers, hiddenSize } = weights.config;
  return reads.map((request) => {
    const counts = request.positions.map((positions) => positions.length);
    const tokenIndices = new Int32Array(counts.reduce((sum, count) => sum + count, 0));
    let next = 0;
    request.positions.forEach((positions, row) => {
      for (const position of positions) tokenIndices[next++] = packedIndex[row * sequenceLength + position]!;
    });
    const width = request.kind === 'hidden' ? hiddenSize : (request.columns?.length ?? weights.heads.get(request.head)!.width);
    const layer = request.kind === 'hidden' ? request.layer : (request.layer ?? numLayers);
    return { request, layer, tokenIndices, counts, result: { width, values: [] } };
  });
}

/** Fills the results of every read taken after `layer` layers, given that stream. */
export function serveReads(plans: readonly PlannedRead[], layer: number, stream: Float32Array, weights: DecoderWeights, kernels: KernelSet): void {
  const { hiddenSize } = weights.config;
  for (const plan of plans) {
    if (plan.layer !== layer) continue;
    const { request, tokenIndices } = plan;
    let packed: Float32Array;
    if (request.kind === 'hidden') {
      packed = new Float32Array(tokenIndices.length * hiddenSize);
      tokenIndices.forEach((token, index) => {
        packed.set(stream.subarray(token * hiddenSize, (token + 1) * hiddenSize), index * hiddenSize);
      });
    } else {
      const head = weights.heads.get(request.head)!;
      packed = applyHead(kernels, head, stream, hiddenSize, tokenIndices, request.columns);
    }
    const { width } = plan.result;
    let offset = 0;
    plan.result.values = plan.counts.map((count) => {
      const values = packed.slice(offset * width, (offset + count) * width);
      offset += count;
      return values;
    });
  }
}
