import type { ForwardRequestV1 } from '@reward-lens/spec';
import type { KernelSet } from '../kernels/kernel-set.js';
import type { KvStorage } from '../kv-cache.js';
import { attendAndMix, projectKeysAndValues } from './decoder-layer.js';
import { embeddingRow, type DecoderWeights } from './decoder-weights.js';
import { createForwardWorkspace, type SliceRow } from './forward-workspace.js';
import { planReads, serveSliceReads, sliceReads, type PlannedRead, type SliceRead } from './read-plan.js';
import type { RotaryTables } from './rotary-embedding.js';

/** What a loaded model needs to run: its weights, its rotary tables and the kernels. */
export interface TinyModel {
  weights: DecoderWeights;
  rotary: RotaryTables;
  kernels: KernelSet;
}

/** Where one row's keys and values live during the forward. */
export interface RowCache {
  storage: KvStorage;
  pastLength: number;
}

/** A validated request's real tokens packed together, row after row (padding never enters the computation). */
export interface PackedForward {
  tokens: number;
  ids: Int32Array;
  positionIds: Int32Array;
  /** Per row: its first packed token, its count, its cached past and where its keys and values go. */
  rows: { start: number; count: number; pastLength: number; storage: KvStorage }[];
  plans: PlannedRead[];
  /** Layers run: as deep as the reads need, or all of them when every layer's keys and values are cached. */
  layers: number;
}

/** The part of a forward pass one thread runs: the packed tokens `start..end` through every layer. */
export interface ForwardSlice {
  start: number;
  end: number;
  ids: Int32Array;
  positionIds: Int32Array;
  rows: SliceRow[];
  layers: number;
  reads: SliceRead[];
}

/**
 * Packs a validated request: each row's real tokens together, so a row's results do not depend
 * on its batch neighbours or on which side it is padded.
 */
export function packForward(weights: DecoderWeights, request: ForwardRequestV1, rowCaches: readonly RowCache[], runAllLayers: boolean): PackedForward {
  const { batchSize, sequenceLength, inputIds, attentionMask } = request;
  const packedIndex = new Int32Array(batchSize * sequenceLength).fill(-1);
  const ids: number[] = [];
  const positionIds: number[] = [];
  const rows: PackedForward['rows'] = [];
  for (let row = 0; row < batchSize; row++) {
    const { storage, pastLength } = rowCaches[row]!;
    const start = ids.length;
    for (let column = 0; column < sequenceLength; column++) {
      const cell = row * sequenceLength + column;
      if (attentionMask[cell] === 0) continue;
      packedIndex[cell] = ids.length;
      positionIds.push(pastLength + ids.length - start);
      ids.push(inputIds[cell]!);
    }
    rows.push({ start, count: ids.length - start, pastLength, storage });
  }
  const plans = planReads(request.reads, packedIndex, sequenceLength, weights);
  const deepestRead = plans.reduce((deepest, plan) => Math.max(deepest, plan.layer), 0);
  const layers = runAllLayers ? weights.config.numLayers : deepestRead;
  return { tokens: ids.length, ids: Int32Array.from(ids), positionIds: Int32Array.from(positionIds), rows, plans, layers };
}

/** The slice of a packed forward over its tokens `start..end` (rows cut where the range cuts them). */
export function sliceForward(packed: PackedForward, start: number, end: number): ForwardSlice {
  const rows: SliceRow[] = [];
  for (const row of packed.rows) {
    const from = Math.max(row.start, start);
    const to = Math.min(row.start + row.count, end);
    if (to <= from) continue;
    rows.push({
      localStart: from - start,
      count: to - from,
      pastLength: row.pastLength + from - row.start,
      keys: row.storage.keys,
      values: row.storage.values,
    });
  }
  return {
    start,
    end,
    ids: packed.ids.subarray(start, end),
    positionIds: packed.positionIds.subarray(start, end),
    rows,
    layers: packed.layers,
    reads: sliceReads(packed.plans, start, end),
  };
}

/**
 * Runs a slice through its layers and returns each read's values for the slice's entries
 * (`[entries, width]`). `sync` is called between the halves of every block, once this slice's
 * keys and values are written: a thread running one slice of several waits there for the
 * others (their keys and values are what its queries read next).
 */
export function runForwardSlice(model: TinyModel, slice: ForwardSlice, sync: () => void = () => {}): Float32Array[] {
  const { weights, rotary, kernels } = model;
  const { config } = weights;
  const { hiddenSize } = config;
  const workspace = createForwardWorkspace(config, slice.rows, slice.positionIds);
  slice.ids.forEach((id, token) => embeddingRow(weights, id, workspace.hidden, token * hiddenSize));
  const results: Float32Array[] = new Array(slice.reads.length);
  serveSliceReads(slice.reads, results, 0, workspace.hidden, weights, kernels);
  for (let layer = 0; layer < slice.layers; layer++) {
    const layerWeights = weights.layers[layer]!;
    projectKeysAndValues(config, kernels, rotary, layerWeights, layer, workspace);
    sync();
    attendAndMix(config, kernels, layerWeights, layer, workspace);
    serveSliceReads(slice.reads, results, layer + 1, workspace.hidden, weights, kernels);
  }
  return results;
}
