import type { DecoderModel } from '@reward-lens/spec';
import { linear, rmsNorm } from './float32-heads.js';

/**
 * One sequence through the decoder in float32, layer by layer: `states[layer][token]` is the
 * residual stream after `layer` layers (0 = the embeddings). Plain loops, no cache: a small
 * backend written from Hugging Face's `LlamaModel`, as a third party would write one.
 */
export function forwardStates(model: DecoderModel, ids: readonly number[], layers: number): Float32Array[][] {
  const { config } = model;
  const tensor = (name: string) => model.tensors.get(name)!;
  const { hiddenSize, headDim, numHeads, numKvHeads } = config;
  const embeddings = tensor('model.embed_tokens.weight');
  let x: Float32Array[] = ids.map((id) => embeddings.slice(id * hiddenSize, (id + 1) * hiddenSize));
  const states = [x];
  for (let layer = 0; layer < layers; layer++) {
    const prefix = `model.layers.${layer}`;
    const projection = (name: string, input: Float32Array, outFeatures: number) =>
      linear(
        input,
        tensor(`${prefix}.${name}.weight`),
        config.attentionBias && name !== 'self_attn.o_proj' ? tensor(`${prefix}.${name}.bias`) : undefined,
        outFeatures,
      );
    const normed = x.map((row) => rmsNorm(row, tensor(`${prefix}.input_layernorm.weight`), config.rmsNormEps));
    const queries = normed.map((row, position) => rotate(projection('self_attn.q_proj', row, numHeads * headDim), position, headDim, config.ropeTheta));
    const keys = normed.map((row, position) => rotate(projection('self_attn.k_proj', row, numKvHeads * headDim), position, headDim, config.ropeTheta));
    const values = normed.map((row) => projection('self_attn.v_proj', row, numKvHeads * headDim));
    const attended = queries.map((query, position) => attend(query, keys.slice(0, position + 1), values.slice(0, position + 1), numHeads, numKvHeads, headDim));
    x = x.map((row, position) => add(row, linear(attended[position]!, tensor(`${prefix}.self_attn.o_proj.weight`), undefined, hiddenSize)));
    x = x.map((row) => {
      const h = rmsNorm(row, tensor(`${prefix}.post_attention_layernorm.weight`), config.rmsNormEps);
      const gate = linear(h, tensor(`${prefix}.mlp.gate_proj.weight`), undefined, config.intermediateSize);
      const up = linear(h, tensor(`${prefix}.mlp.up_proj.weight`), undefined, config.intermediateSize);
      const activated = gate.map((g, index) => (g / (1 + Math.exp(-g))) * up[index]!);
      return add(row, linear(activated, tensor(`${prefix}.mlp.down_proj.weight`), undefined, hiddenSize));
    });
    states.push(x);
  }
  return states;
}

/** Causal softmax attention of one query over the keys so far, grouped-query aware. */
function attend(query: Float32Array, keys: Float32Array[], values: Float32Array[], numHeads: number, numKvHeads: number, headDim: number): Float32Array {
  const out = new Float32Array(numHeads * headDim);
  for (let head = 0; head < numHeads; head++) {
    const kv = Math.floor(head / (numHeads / numKvHeads)) * headDim;
    const scores = keys.map((key) => {
      let dot = 0;
      for (let d = 0; d < headDim; d++) dot += query[head * headDim + d]! * key[kv + d]!;
      return dot / Math.sqrt(headDim);
    });
    const maximum = Math.max(...scores);
    const weights = scores.map((score) => Math.exp(score - maximum));
    const total = weights.reduce((sum, weight) => sum + weight, 0);
    values.forEach((value, index) => {
      for (let d = 0; d < headDim; d++) out[head * headDim + d]! += (weights[index]! / total) * value[kv + d]!;
    });
  }
  return out;
}

/** Rotary position embedding in Hugging Face's rotate-half layout. */
function rotate(vector: Float32Array, position: number, headDim: number, theta: number): Float32Array {
  const out = vector.slice();
  const half = headDim / 2;
  for (let base = 0; base < vector.length; base += headDim) {
    for (let i = 0; i < half; i++) {
      const angle = position / theta ** ((2 * i) / headDim);
      const [a, b] = [vector[base + i]!, vector[base + i + half]!];
      out[base + i] = a * Math.cos(angle) - b * Math.sin(angle);
      out[base + i + half] = b * Math.cos(angle) + a * Math.sin(angle);
    }
  }
  return out;
}

function add(a: Float32Array, b: Float32Array): Float32Array {
  return a.map((value, index) => value + b[index]!);
}
