import { expectedTensorShapes, type DecoderConfig } from '@reward-lens/spec';
import { differentiableHeads, embeddingName, type DifferentiableHead, type NamedTensor } from './differentiable-head.js';

/** One decoder block's tensors by role, each with its Hugging Face name. */
export interface LayerParameters {
  inputNorm: NamedTensor;
  queryWeight: NamedTensor;
  keyWeight: NamedTensor;
  valueWeight: NamedTensor;
  queryBias: NamedTensor | undefined;
  keyBias: NamedTensor | undefined;
  valueBias: NamedTensor | undefined;
  outputWeight: NamedTensor;
  postAttentionNorm: NamedTensor;
  gateWeight: NamedTensor;
  upWeight: NamedTensor;
  downWeight: NamedTensor;
}

/** Every tensor the gradient passes read, by role and by name. */
export interface DecoderParameters {
  config: DecoderConfig;
  embedTokens: NamedTensor;
  layers: LayerParameters[];
  finalNorm: NamedTensor;
  heads: Map<string, DifferentiableHead>;
  /** Elements per tensor name: the tensors a gradient reports, each once. */
  sizes: Map<string, number>;
}

/** The model's tensors arranged for the gradient passes (the arrays themselves, not copies). */
export function decoderParameters(config: DecoderConfig, tensors: ReadonlyMap<string, Float32Array>): DecoderParameters {
  const tensor = (name: string): Float32Array => {
    const values = tensors.get(name);
    if (!values) throw new Error(`tensor "${name}" is missing after validation`);
    return values;
  };
  const named = (name: string): NamedTensor => ({ name, values: tensor(name) });
  const layers: LayerParameters[] = [];
  for (let layer = 0; layer < config.numLayers; layer++) {
    const prefix = `model.layers.${layer}`;
    const attention = `${prefix}.self_attn`;
    const bias = (projection: string) => (config.attentionBias ? named(`${attention}.${projection}.bias`) : undefined);
    layers.push({
      inputNorm: named(`${prefix}.input_layernorm.weight`),
      queryWeight: named(`${attention}.q_proj.weight`),
      keyWeight: named(`${attention}.k_proj.weight`),
      valueWeight: named(`${attention}.v_proj.weight`),
      queryBias: bias('q_proj'),
      keyBias: bias('k_proj'),
      valueBias: bias('v_proj'),
      outputWeight: named(`${attention}.o_proj.weight`),
      postAttentionNorm: named(`${prefix}.post_attention_layernorm.weight`),
      gateWeight: named(`${prefix}.mlp.gate_proj.weight`),
      upWeight: named(`${prefix}.mlp.up_proj.weight`),
      downWeight: named(`${prefix}.mlp.down_proj.weight`),
    });
  }
  const sizes = new Map<string, number>();
  for (const [name, shape] of expectedTensorShapes(config))
    sizes.set(
      name,
      shape.reduce((product, dimension) => product * dimension, 1),
    );
  return { config, embedTokens: named(embeddingName), layers, finalNorm: named('model.norm.weight'), heads: differentiableHeads(config, tensor), sizes };
}
