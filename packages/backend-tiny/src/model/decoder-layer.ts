import type { DecoderConfig } from '@reward-lens/core';
import type { KernelSet } from '../kernels/kernel-set.js';
import { attendRow } from './attention.js';
import type { LayerWeights } from './decoder-weights.js';
import type { ForwardWorkspace } from './forward-workspace.js';
import { runMlp } from './mlp.js';
import { rmsNorm } from './rms-norm.js';
import { applyRotary, type RotaryTables } from './rotary-embedding.js';

/**
 * One pre-norm decoder block over every real token of the batch, updating `workspace.hidden`:
 * `x += o_proj(attention(rmsNorm(x)))`, then `x += mlp(rmsNorm(x))`.
 * Each row's new rotated keys and values are written into its cache storage for `layer`.
 */
export function runDecoderLayer(
  config: DecoderConfig,
  kernels: KernelSet,
  rotary: RotaryTables,
  weights: LayerWeights,
  layer: number,
  workspace: ForwardWorkspace,
): void {
  const { hiddenSize, numHeads, numKvHeads, headDim, intermediateSize, rmsNormEps } = config;
  const { tokens, hidden, normed, projected, queries, keys, values, attentionOutput } = workspace;
  const queryWidth = numHeads * headDim;
  const keyWidth = numKvHeads * headDim;

  rmsNorm(normed, 0, hidden, 0, weights.inputNorm, tokens, hiddenSize, rmsNormEps);
  kernels.matmulTransposed(queries, normed, weights.queryWeight, tokens, hiddenSize, queryWidth, weights.queryBias);
  kernels.matmulTransposed(keys, normed, weights.keyWeight, tokens, hiddenSize, keyWidth, weights.keyBias);
  kernels.matmulTransposed(values, normed, weights.valueWeight, tokens, hiddenSize, keyWidth, weights.valueBias);
  applyRotary(rotary, queries, workspace.positionIds, tokens, numHeads);
  applyRotary(rotary, keys, workspace.positionIds, tokens, numKvHeads);

  for (const row of workspace.rows) {
    if (row.count === 0) continue;
    const cachedKeys = row.storage.keys[layer]!;
    const cachedValues = row.storage.values[layer]!;
    const from = row.start * keyWidth;
    const to = (row.start + row.count) * keyWidth;
    cachedKeys.set(keys.subarray(from, to), row.pastLength * keyWidth);
    cachedValues.set(values.subarray(from, to), row.pastLength * keyWidth);
    attendRow(kernels, config, queries, attentionOutput, row.start, row.count, row.pastLength, cachedKeys, cachedValues, workspace.attention);
  }
  kernels.matmulTransposed(projected, attentionOutput, weights.outputWeight, tokens, queryWidth, hiddenSize);
  addInPlace(hidden, projected, tokens * hiddenSize);

  rmsNorm(normed, 0, hidden, 0, weights.postAttentionNorm, tokens, hiddenSize, rmsNormEps);
  runMlp(kernels, weights, projected, normed, tokens, hiddenSize, intermediateSize, workspace.mlp);
  addInPlace(hidden, projected, tokens * hiddenSize);
}

function addInPlace(target: Float32Array, addend: Float32Array, length: number): void {
  for (let index = 0; index < length; index++) target[index] = target[index]! + addend[index]!;
}
