import type { ReadRequestV1, ReadResultV1 } from '@reward-lens/spec';
import type { KernelSet } from '../kernels/kernel-set.js';
import type { DecoderWeights } from './decoder-weights.js';
import { applyHead } from './heads.js';

/** A read resolved against the packed token buffers: which tokens, after which layer. */
export interface PlannedRead {
  request: ReadRequestV1;
  /** Layers run before the read: 0 = embeddings. A head read applies the final norm and head here. */
  layer: number;
  /** Packed token indices of every requested position, row after row (the read's entries). */
  tokenIndices: Int32Array;
  /** Requested positions per row. */
  counts: number[];
  width: number;
}

/** What a read computes at a token, without its positions: what a thread needs to serve its part. */
export type SliceReadKind = { kind: 'hidden' } | { kind: 'head'; head: string; columns?: readonly number[] };

/** A read's part in one slice of the packed tokens: the slice's tokens among its entries, in entry order, as slice-local indices. */
export interface SliceRead {
  layer: number;
  what: SliceReadKind;
  tokens: Int32Array;
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
    return { request, layer, tokenIndices, counts, width };
  });
}

/** Each read's entries among the packed tokens `start..end`, as that slice's local indices. */
export function sliceReads(plans: readonly PlannedRead[], start: number, end: number): SliceRead[] {
  return plans.map(({ request, layer, tokenIndices }) => {
    const tokens: number[] = [];
    for (const token of tokenIndices) if (token >= start && token < end) tokens.push(token - start);
    const what: SliceReadKind =
      request.kind === 'hidden' ? { kind: 'hidden' } : { kind: 'head', head: request.head, ...(request.columns ? { columns: request.columns } : {}) };
    return { layer, what, tokens: Int32Array.from(tokens) };
  });
}

/** Computes every slice read taken after `layer` layers from the slice's stream: `[tokens, width]` each, into `results`. */
export function serveSliceReads(
  reads: readonly SliceRead[],
  results: Float32Array[],
  layer: number,
  stream: Float32Array,
  weights: DecoderWeights,
  kernels: KernelSet,
): void {
  const { hiddenSize } = weights.config;
  reads.forEach((read, index) => {
    if (read.layer !== layer) return;
    const { what, tokens } = read;
    if (what.kind === 'hidden') {
      const packed = new Float32Array(tokens.length * hiddenSize);
      tokens.forEach((token, entry) => packed.set(stream.subarray(token * hiddenSize, (token + 1) * hiddenSize), entry * hiddenSize));
      results[index] = packed;
    } else {
      results[index] = applyHead(kernels, weights.heads.get(what.head)!, stream, hiddenSize, tokens, what.columns);
    }
  });
}

/**
 * The reads of a request from its slices' results: `ranges[k]` is slice k's packed token range,
 * `results[k][read]` its values for that read's entries in the range, in entry order.
 */
export function assembleReads(
  plans: readonly PlannedRead[],
  ranges: readonly (readonly [number, number])[],
  results: readonly (readonly Float32Array[])[],
): ReadResultV1[] {
  return plans.map((plan, index) => {
    const { width, tokenIndices, counts } = plan;
    let packed: Float32Array;
    if (ranges.length === 1) {
      packed = results[0]![index]!;
    } else {
      packed = new Float32Array(tokenIndices.length * width);
      const taken = new Array<number>(ranges.length).fill(0);
      tokenIndices.forEach((token, entry) => {
        const slice = ranges.findIndex(([start, end]) => token >= start && token < end);
        const next = taken[slice]!++;
        packed.set(results[slice]![index]!.subarray(next * width, (next + 1) * width), entry * width);
      });
    }
    let offset = 0;
    const values = counts.map((count) => {
      const rowValues = packed.slice(offset * width, (offset + count) * width);
      offset += count;
      return rowValues;
    });
    return { width, values };
  });
}
