import type { DecoderConfig } from '@reward-lens/spec';
import type { KernelSet } from '../kernels/kernel-set.js';
import { linear } from '../kernels/linear.js';
import { attendRow } from './attention.js';
import type { LayerWeights } from './decoder-weights.js';
import type { ForwardWorkspace } from './forward-workspace.js';
import { runMlp } from './mlp.js';
import { rmsNorm } from './rms-norm.js';
import { applyRotary, type RotaryTables } from './rotary-embedding.js';

/**
 * A pre-norm decoder block, `x += o_proj(attention(rmsNorm(x)))`, then `x += mlp(rmsNorm(x))`,
 * over a slice's tokens, in two halves: `projectKeysAndValues` writes the slice's rotated keys
 * and values into its rows' caches; `attendAndMix` reads every key and value its queries see
 * (other threads' slices of the same rows too) and updates `workspace.hidden`. Threads that
 * share rows wait for each other between the halves; each token's arithmetic is the same
 * whoever runs it, so the result does not depend on how the tokens were split.
 */
export function projectKeysAndValues(
  config: DecoderConfig,
  kernels: KernelSet,
  rotary: RotaryTables,
  weights: LayerWeights,
  layer: number,
  workspace: ForwardWorkspace,
): void {
  const { hiddenSize, numHeads, numKvHeads, headDim, rmsNormEps } = config;
  const { tokens, hidden, normed, queries, keys, values } = workspace;
  const queryWidth = numHeads * headDim;
  const keyWidth = numKvHeads * headDim;

  rmsNorm(normed, 0, hidden, 0, weights.inputNorm, tokens, hiddenSize, rmsNormEps);
  linear(kernels, queries, normed, weights.queryWeight, tokens, hiddenSize, queryWidth, weights.queryBias);
  linear(kernels, keys, normed, weights.keyWeight, tokens, hiddenSize, keyWidth, weights.keyBias);
  linear(kernels, values, normed, weights.valueWeight, tokens, hiddenSize, keyWidth, weights.valueBias);
  applyRotary(rotary, queries, workspace.positionIds, tokens, numHeads);
  applyRotary(rotary, keys, workspace.positionIds, tokens, numKvHeads);

  for (const row of workspace.rows) {
    if (row.count === 0) continue;
    const from = row.localStart * keyWidth;
    const to = (row.localStart + row.count) * keyWidth;
    row.keys[layer]!.set(keys.subarray(from, to), row.pastLength * keyWidth);
    row.values[layer]!.set(values.subarray(from, to), row.pastLength * keyWidth);
  }
}

/** The block's second half over the slice (see `projectKeysAndValues`): attention, its projection, the MLP, both residual adds. */
export function attendAndMix(config: DecoderConfig, kernels: KernelSet, weights: LayerWeights, layer: number, workspace: ForwardWorkspace): void {
  const { hiddenSize, numHeads, headDim, intermediateSize, rmsNormEps } = config;
  const { tokens, hidden, normed, projected, queries, attentionOutput } = workspace;
  const queryWidth = numHeads * headDim;

  for (const row of workspace.rows) {
    if (row.count === 0) continue;
    attendRow(kernels, config, queries, attentionOutput, row.localStart, row.count, row.pastLength, row.keys[layer]!, row.values[layer]!, workspace.attention);
  }
  linear(kernels, projected, attentionOutput, weights.outputWeight, tokens, queryWidth, hiddenSize);
  addInPlace(hidden, projected, tokens * hiddenSize);

  rmsNorm(normed, 0, hidden, 0, weights.postAttentionNorm, tokens, hiddenSize, rmsNormEps);
  runMlp(kernels, weights, projected, normed, tokens, hiddenSize, intermediateSize, workspace.mlp);
  addInPlace(hidden, projected, tokens * hiddenSize);
}

function addInPlace(target: Float32Array, addend: Float32Array, length: number): void {
  for (let index = 0; index < length; index++) target[index] = target[index]! + addend[index]!;
}
