import type { DecoderModel } from '@reward-lens/spec';

/**
 * The independent float64 oracle: a deliberately naive decoder for tests. One sequence, no
 * cache, nested arrays, float64 everywhere, written from Hugging Face's `LlamaModel` (and
 * `Qwen2Model`'s QKV biases) without reusing any backend code, so that no backend is only ever
 * compared with another backend.
 */
export interface ReferenceRun {
  /** `states[layer][token]`: the residual stream after `layer` layers (0 = embeddings), before the final norm. */
  states: number[][][];
}

/**
 * Runs every layer over `ids` (position ids 0, 1, ...). `embeddings`, one vector per id, replaces
 * the embedding table's rows as the input (integrated gradients feeds scaled embeddings).
 */
export function referenceForward(model: DecoderModel, ids: readonly number[], options: { embeddings?: readonly (readonly number[])[] } = {}): ReferenceRun {
  const config = model.config;
  const tensor = (name: string): Float32Array => {
    const found = model.tensors.get(name);
    if (!found) throw new Error(`the reference decoder needs tensor "${name}"`);
    return found;
  };
  const hidden = config.hiddenSize;
  const headDim = config.headDim;
  const embeddings = tensor('model.embed_tokens.weight');
  let x = ids.map((id, position) =>
    options.embeddings ? [...options.embeddings[position]!] : Array.from(embeddings.subarray(id * hidden, (id + 1) * hidden)),
  );
  const states = [x.map((row) => [...row])];
  for (let layer = 0; layer < config.numLayers; layer++) {
    const prefix = `model.layers.${layer}`;
    const bias = (name: string) => (config.attentionBias ? tensor(`${prefix}.self_attn.${name}.bias`) : undefined);
    const normed = x.map((row) => referenceRmsNorm(row, tensor(`${prefix}.input_layernorm.weight`), config.rmsNormEps));
    const queries = normed.map((row, position) =>
      rope(referenceLinear(row, tensor(`${prefix}.self_attn.q_proj.weight`), bias('q_proj')), position, headDim, config.ropeTheta),
    );
    const keys = normed.map((row, position) =>
      rope(referenceLinear(row, tensor(`${prefix}.self_attn.k_proj.weight`), bias('k_proj')), position, headDim, config.ropeTheta),
    );
    const values = normed.map((row) => referenceLinear(row, tensor(`${prefix}.self_attn.v_proj.weight`), bias('v_proj')));
    const attended = queries.map((query, position) => {
      const out: number[] = [];
      for (let head = 0; head < config.numHeads; head++) {
        const kvHead = Math.floor(head / (config.numHeads / config.numKvHeads));
        const scores: number[] = [];
        for (let key = 0; key <= position; key++) {
          let score = 0;
          for (let d = 0; d < headDim; d++) score += query[head * headDim + d]! * keys[key]![kvHead * headDim + d]!;
          scores.push(score / Math.sqrt(headDim));
        }
        const maximum = Math.max(...scores);
        const weights = scores.map((score) => Math.exp(score - maximum));
        const total = weights.reduce((sum, weight) => sum + weight, 0);
        for (let d = 0; d < headDim; d++) {
          let sum = 0;
          for (let key = 0; key <= position; key++) sum += (weights[key]! / total) * values[key]![kvHead * headDim + d]!;
          out.push(sum);
        }
      }
      return out;
    });
    x = x.map((row, position) => add(row, referenceLinear(attended[position]!, tensor(`${prefix}.self_attn.o_proj.weight`))));
    x = x.map((row) => {
      const h = referenceRmsNorm(row, tensor(`${prefix}.post_attention_layernorm.weight`), config.rmsNormEps);
      const gate = referenceLinear(h, tensor(`${prefix}.mlp.gate_proj.weight`));
      const up = referenceLinear(h, tensor(`${prefix}.mlp.up_proj.weight`));
      const activated = gate.map((g, index) => (g / (1 + Math.exp(-g))) * up[index]!);
      return add(row, referenceLinear(activated, tensor(`${prefix}.mlp.down_proj.weight`)));
    });
    states.push(x.map((row) => [...row]));
  }
  return { states };
}

/** `x / sqrt(mean(x²) + eps) * weight`, in float64. */
export function referenceRmsNorm(row: readonly number[], weight: Float32Array, eps: number): number[] {
  const meanSquare = row.reduce((sum, value) => sum + value * value, 0) / row.length;
  return row.map((value, index) => (value / Math.sqrt(meanSquare + eps)) * weight[index]!);
}

/** `weight · input (+ bias)` for a PyTorch `[out, in]` weight, in float64. */
export function referenceLinear(input: readonly number[], weight: Float32Array, bias?: Float32Array): number[] {
  const outputs = weight.length / input.length;
  const out: number[] = [];
  for (let o = 0; o < outputs; o++) {
    let sum = bias ? bias[o]! : 0;
    for (let i = 0; i < input.length; i++) sum += weight[o * input.length + i]! * input[i]!;
    out.push(sum);
  }
  return out;
}

/** Hugging Face's rotate_half layout: pairs (i, i + d/2) within each head. */
function rope(vector: readonly number[], position: number, headDim: number, theta: number): number[] {
  const out = [...vector];
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

function add(a: readonly number[], b: readonly number[]): number[] {
  return a.map((value, index) => value + b[index]!);
}
