import type { DecoderConfig, DecoderModel } from '@reward-lens/spec';
import { compileHead, type HeadWeights } from './heads.js';
import { dequantizeRows } from '@reward-lens/spec/internal';
import { isQuantized, type WeightMatrix } from './weight-matrix.js';
import type { QuantizedTensorV1 } from '@reward-lens/spec';

export type { HeadWeights } from './heads.js';

/** One decoder block's tensors, by role. */
export interface LayerWeights {
  inputNorm: Float32Array;
  queryWeight: WeightMatrix;
  keyWeight: WeightMatrix;
  valueWeight: WeightMatrix;
  queryBias: Float32Array | undefined;
  keyBias: Float32Array | undefined;
  valueBias: Float32Array | undefined;
  outputWeight: WeightMatrix;
  postAttentionNorm: Float32Array;
  gateWeight: WeightMatrix;
  upWeight: WeightMatrix;
  downWeight: WeightMatrix;
}

/**
 * The model's tensors gathered by role. The arrays are the caller's own (no copies): the
 * backend never writes to them, and dropping this object is what frees the model.
 */
export interface DecoderWeights {
  config: DecoderConfig;
  /** `[vocab, hidden]`: float32, or quantized (see `embeddingRow`). */
  embedTokens: WeightMatrix;
  layers: LayerWeights[];
  heads: Map<string, HeadWeights>;
}

/**
 * Call after `validateDecoderModel`: a missing tensor here is a bug, not a user error. Matrices
 * in `quantized` (held quantized instead of in `model.tensors`) are taken from there; heads and
 * norms always read float32 tensors.
 */
export function gatherDecoderWeights(model: DecoderModel, quantized: ReadonlyMap<string, QuantizedTensorV1> = new Map()): DecoderWeights {
  const { config, tensors } = model;
  const required = (name: string): Float32Array => {
    const tensor = tensors.get(name);
    if (!tensor) throw new Error(`tensor "${name}" is missing after validation`);
    return tensor;
  };
  const matrix = (name: string): WeightMatrix => quantized.get(name) ?? required(name);
  const optional = (name: string | undefined): Float32Array | undefined => (name === undefined ? undefined : required(name));
  const layers: LayerWeights[] = [];
  for (let layer = 0; layer < config.numLayers; layer++) {
    const prefix = `model.layers.${layer}`;
    const attention = `${prefix}.self_attn`;
    layers.push({
      inputNorm: required(`${prefix}.input_layernorm.weight`),
      queryWeight: matrix(`${attention}.q_proj.weight`),
      keyWeight: matrix(`${attention}.k_proj.weight`),
      valueWeight: matrix(`${attention}.v_proj.weight`),
      queryBias: optional(config.attentionBias ? `${attention}.q_proj.bias` : undefined),
      keyBias: optional(config.attentionBias ? `${attention}.k_proj.bias` : undefined),
      valueBias: optional(config.attentionBias ? `${attention}.v_proj.bias` : undefined),
      outputWeight: matrix(`${attention}.o_proj.weight`),
      postAttentionNorm: required(`${prefix}.post_attention_layernorm.weight`),
      gateWeight: matrix(`${prefix}.mlp.gate_proj.weight`),
      upWeight: matrix(`${prefix}.mlp.up_proj.weight`),
      downWeight: matrix(`${prefix}.mlp.down_proj.weight`),
    });
  }
  const embedTokens = matrix('model.embed_tokens.weight');
  const heads = new Map<string, HeadWeights>();
  for (const head of config.heads) heads.set(head.name, compileHead(config, head, required));
  return { config, embedTokens, layers, heads };
}

/** Writes token `id`'s embedding (`hiddenSize` floats) into `target` at `offset`. */
export function embeddingRow(weights: DecoderWeights, id: number, target: Float32Array, offset: number): void {
  const { embedTokens } = weights;
  const { hiddenSize } = weights.config;
  if (isQuantized(embedTokens)) dequantizeRows(embedTokens, id, 1, target, offset);
  else target.set(embedTokens.subarray(id * hiddenSize, (id + 1) * hiddenSize), offset);
}
