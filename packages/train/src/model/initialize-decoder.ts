import { expectedTensorShapes, type DecoderConfig, type DecoderModel } from '@reward-lens/core';
import { deriveSeed, TrainingRandom } from '../random.js';

export interface InitializationOptions {
  /** Standard deviation of the normal initialisation of embeddings and projections. Default 0.02 (Hugging Face's). */
  std?: number;
}

/**
 * Fresh weights for training, GPT-2 style: embeddings and projections from N(0, std²), the
 * projections that write into the residual stream (`o_proj`, `down_proj`) scaled by
 * `1/sqrt(2·layers)`, norms 1, biases 0. Deterministic in `seed`. Tensors already in
 * `existing` are kept (so a loaded model gains only the heads it lacks).
 */
export function initializeDecoder(
  config: DecoderConfig,
  seed: number,
  options: InitializationOptions = {},
  existing?: ReadonlyMap<string, Float32Array>,
): DecoderModel {
  const std = options.std ?? 0.02;
  const random = new TrainingRandom(deriveSeed(seed, 1));
  const residualScale = 1 / Math.sqrt(2 * config.numLayers);
  const tensors = new Map<string, Float32Array>();
  for (const [name, shape] of expectedTensorShapes(config)) {
    const size = shape.reduce((product, dimension) => product * dimension, 1);
    const kept = existing?.get(name);
    if (kept) {
      tensors.set(name, kept);
      continue;
    }
    const tensor = new Float32Array(size);
    if (name.endsWith('norm.weight')) tensor.fill(1);
    else if (!name.endsWith('.bias')) {
      const scale = name.endsWith('o_proj.weight') || name.endsWith('down_proj.weight') ? std * residualScale : std;
      for (let index = 0; index < size; index++) tensor[index] = scale * random.gaussian();
    }
    tensors.set(name, tensor);
  }
  return { config, tensors };
}
