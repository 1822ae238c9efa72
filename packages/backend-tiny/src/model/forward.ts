import type { ForwardRequestV1, ReadResultV1 } from '@reward-lens/core';
import type { KernelSet } from '../kernels/kernel-set.js';
import type { KvStorage } from '../kv-cache.js';
import { runDecoderLayer } from './decoder-layer.js';
import type { DecoderWeights } from './decoder-weights.js';
import { createForwardWorkspace, type RowSegment } from './forward-workspace.js';
import { planReads, serveReads } from './read-plan.js';
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

/**
 * Runs a validated request. Each row's real tokens are packed together (padding never enters
 * the computation), so a row's results do not depend on its batch neighbours or on which side
 * it is padded. Layers run only as deep as the reads need, or all of them when every layer's
 * keys and values must be cached (`runAllLayers`).
 */
export function runForward(model: TinyModel, request: ForwardRequestV1, rowCaches: readonly RowCache[], runAllLayers: boolean): ReadResultV1[] {
  const { weights, rotary, kernels } = model;
  const { config } = weights;
  const { batchSize, sequenceLength, inputIds, attentionMask } = request;

  const packedIndex = new Int32Array(batchSize * sequenceLength).fill(-1);
  const packedIds: number[] = [];
  const positionIds: number[] = [];
  const rows: RowSegment[] = [];
  for (let row = 0; row < batchSize; row++) {
    const { storage, pastLength } = rowCaches[row]!;
    const start = packedIds.length;
    for (let column = 0; column < sequenceLength; column++) {
      const cell = row * sequenceLength + column;
      if (attentionMask[cell] === 0) continue;
      packedIndex[cell] = packedIds.length;
      positionIds.push(pastLength + packedIds.length - start);
      packedIds.push(inputIds[cell]!);
    }
    rows.push({ start, count: packedIds.length - start, pastLength, storage });
  }

  const plans = planReads(request.reads, packedIndex, sequenceLength, weights);
  const deepestRead = plans.reduce((deepest, plan) => Math.max(deepest, plan.layer), 0);
  const layersToRun = runAllLayers ? config.numLayers : deepestRead;

  const workspace = createForwardWorkspace(config, rows, Int32Array.from(positionIds));
  const { hiddenSize } = config;
  packedIds.forEach((id, token) => {
    workspace.hidden.set(weights.embedTokens.subarray(id * hiddenSize, (id + 1) * hiddenSize), token * hiddenSize);
  });
  serveReads(plans, 0, workspace.hidden, weights, kernels);
  for (let layer = 0; layer < layersToRun; layer++) {
    runDecoderLayer(config, kernels, rotary, weights.layers[layer]!, layer, workspace);
    serveReads(plans, layer + 1, workspace.hidden, weights, kernels);
  }
  return plans.map((plan) => plan.result);
}
