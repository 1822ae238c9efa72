import { InvalidInputError, type DecoderModel } from '@reward-lens/core';
import { initializeDecoder } from './initialize-decoder.js';

/**
 * Where each layer of the grown model comes from: an index into the old layers, or -1 for a new
 * block. New blocks are spread evenly: with twice the layers, one after each old block.
 */
export function grownLayerSources(oldLayers: number, newLayers: number): number[] {
  const sources: number[] = [];
  let placed = 0;
  for (let old = 0; old < oldLayers; old++) {
    sources.push(old);
    // New blocks owed after old layer `old`, so that they are spread evenly.
    const target = Math.round(((old + 1) * (newLayers - oldLayers)) / oldLayers);
    for (; placed < target; placed++) sources.push(-1);
  }
  return sources;
}

/**
 * A deeper model that computes exactly what `model` computes (block expansion, as LLaMA Pro
 * grows a trained Llama): the old blocks keep their weights, and each new block is initialised
 * as `initializeDecoder` would, except its two output projections (`o_proj`, `down_proj`), which
 * are zero, so the block adds nothing to the residual stream until training moves them.
 * Embeddings, final norm and heads are the old ones. Deterministic in `seed`.
 */
export function growDecoder(model: DecoderModel, numLayers: number, seed: number): DecoderModel {
  const old = model.config.numLayers;
  if (!Number.isInteger(numLayers) || numLayers < old) {
    throw new InvalidInputError(`a model can grow to more layers than its ${old}, not to ${numLayers}`);
  }
  const config = { ...model.config, numLayers };
  const fresh = initializeDecoder(config, seed);
  const sources = grownLayerSources(old, numLayers);
  const tensors = new Map<string, Float32Array>();
  for (const [name, tensor] of fresh.tensors) {
    const match = /^model\.layers\.(\d+)\.(.+)$/.exec(name);
    if (match === null) {
      tensors.set(name, model.tensors.get(name) ?? tensor);
      continue;
    }
    const source = sources[Number(match[1])]!;
    const rest = match[2]!;
    if (source >= 0) tensors.set(name, model.tensors.get(`model.layers.${source}.${rest}`)!);
    else tensors.set(name, rest === 'self_attn.o_proj.weight' || rest === 'mlp.down_proj.weight' ? new Float32Array(tensor.length) : tensor);
  }
  return { config, tensors };
}
