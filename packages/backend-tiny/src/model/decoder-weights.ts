import type { DecoderConfig, DecoderModel } from '@reward-lens/spec';
import { compileHead, type HeadWeights } from './heads.js';

export type { HeadWeights } from './heads.js';

/** One decoder block's tensors, by role. */
export interface LayerWeights {
  inputNorm: Float32Array;
  queryWeight: Float32Array;
  keyWeight: Float32Array;
  valueWeight: Float32Array;
  queryBias: Float32Array | undefined;
  keyBias: Float32Array | undefined;
  valueBias: Float32Array | undefined;
  outputWeight: Float32Array;
  postAttentionNorm: Float32Array;
  gateWeight: Float32Array;
  upWeight: Float32Array;
  downWeight: Float32Array;
}

/**
 * The model's tensors gathered by role. The arrays are the caller's own (no copies): the
 * backend never writes to them, and dropping this object is what frees the model.
 */
export interface DecoderWeights {
  config: DecoderConfig;
  embedTokens: Float32Array;
  layers: LayerWeights[];
  heads: Map<string, HeadWeights>;
}

/** Call after `validateDecoderModel`: a missing tensor here is a bug, not a user error. */
export function gatherDecoderWeights(model: DecoderModel): DecoderWeights {
  const { config, tensors } = model;
  const required = (name: string): Float32Array => {
    const tensor = tensors.get(name);
    if (!tensor) throw new Error(`tensor "${name}" is missing after validation`);
    return tensor;
  };
  const optional = (name: string | undefined): Float32Array | undefined => (name === undefined ? undefined : required(name));
  const layers: LayerWeights[] = [];
  for (let layer = 0; layer < config.numLayers; layer++) {
    const prefix = `model.layers.${layer}`;
    const attention = `${prefix}.self_attn`;
    layers.push({
      inputNorm: required(`${prefix}.input_layernorm.weight`),
      queryWeight: required(`${attention}.q_proj.weight`),
      keyWeight: required(`${attention}.k_proj.weight`),
      valueWeight: required(`${attention}.v_proj.weight`),
      queryBias: optional(config.attentionBias ? `${attention}.q_proj.bias` : undefined),
      keyBias: optional(config.attentionBias ? `${attention}.k_proj.bias` : undefined),
      valueBias: optional(config.attentionBias ? `${attention}.v_proj.bias` : undefined),
      outputWeight: required(`${attention}.o_proj.weight`),
      postAttentionNorm: required(`${prefix}.post_attention_layernorm.weight`),
      gateWeight: required(`${prefix}.mlp.gate_proj.weight`),
      upWeight: required(`${prefix}.mlp.up_proj.weight`),
      downWeight: required(`${prefix}.mlp.down_proj.weight`),
    });
  }
  const embedTokens = required('model.embed_tokens.weight');
  const heads = new Map<string, HeadWeights>();
  for (const head of config.heads) heads.set(head.name, compileHead(config, head, required));
  return { config, embedTokens, layers, heads };
}
