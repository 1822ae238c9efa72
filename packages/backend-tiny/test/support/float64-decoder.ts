import type { DecoderConfig, ForwardRequestV1 } from '@reward-lens/spec';

/**
 * A float64 decoder for finite-difference checks, written from Hugging Face's LlamaModel and
 * sharing no code with the backend: plain loops over one row at a time, every intermediate in
 * float64, RoPE angles computed exactly. Parameters are float64 copies that a check perturbs;
 * `embeddingOffsets` (per row `[sequenceLength, hidden]`) are added to the looked-up
 * embeddings, the variable an input-embedding gradient is taken with respect to.
 *
 * Returns, per read, per row, the read's values position-major (as the spec's reads).
 */
export function float64Reads(
  config: DecoderConfig,
  parameters: ReadonlyMap<string, Float64Array>,
  request: ForwardRequestV1,
  embeddingOffsets?: readonly Float64Array[],
): number[][][] {
  const results: number[][][] = request.reads.map(() => []);
  for (let row = 0; row < request.batchSize; row++) {
    const columns: number[] = [];
    for (let column = 0; column < request.sequenceLength; column++)
      if (request.attentionMask[row * request.sequenceLength + column] === 1) columns.push(column);
    const ids = columns.map((column) => request.inputIds[row * request.sequenceLength + column]!);
    const offsets = embeddingOffsets?.[row];
    const states = rowStates(config, parameters, ids, (position, index) => (offsets ? offsets[columns[position]! * config.hiddenSize + index]! : 0));
    request.reads.forEach((read, readIndex) => {
      const values: number[] = [];
      for (const column of read.positions[row]!) {
        const position = columns.indexOf(column);
        if (read.kind === 'hidden') values.push(...states[read.layer]![position]!);
        else values.push(...applyHead(config, parameters, states[read.layer ?? config.numLayers]![position]!, read.head, read.columns));
      }
      results[readIndex]!.push(values);
    });
  }
  return results;
}

type Parameters = ReadonlyMap<string, Float64Array>;

function tensor(parameters: Parameters, name: string): Float64Array {
  const values = parameters.get(name);
  if (!values) throw new Error(`float64 decoder: no tensor ${name}`);
  return values;
}

/** `states[layer][position]`: the residual stream after `layer` layers (0 = embeddings). */
function rowStates(config: DecoderConfig, parameters: Parameters, ids: readonly number[], offset: (position: number, index: number) => number): number[][][] {
  const { hiddenSize: hidden, headDim, numHeads, numKvHeads } = config;
  const embeddings = tensor(parameters, 'model.embed_tokens.weight');
  let x = ids.map((id, position) => Array.from({ length: hidden }, (_, index) => embeddings[id * hidden + index]! + offset(position, index)));
  const states = [x];
  for (let layer = 0; layer < config.numLayers; layer++) {
    const prefix = `model.layers.${layer}`;
    const get = (name: string) => tensor(parameters, `${prefix}.${name}`);
    const bias = (name: string) => (config.attentionBias ? get(`self_attn.${name}.bias`) : undefined);
    const normed = x.map((vector) => rms(vector, get('input_layernorm.weight'), config.rmsNormEps));
    const q = normed.map((vector, position) => rope(affine(vector, get('self_attn.q_proj.weight'), bias('q_proj')), position, headDim, config.ropeTheta));
    const k = normed.map((vector, position) => rope(affine(vector, get('self_attn.k_proj.weight'), bias('k_proj')), position, headDim, config.ropeTheta));
    const v = normed.map((vector) => affine(vector, get('self_attn.v_proj.weight'), bias('v_proj')));
    const attended = q.map((query, position) => {
      const out: number[] = [];
      for (let head = 0; head < numHeads; head++) {
        const group = Math.floor((head * numKvHeads) / numHeads);
        const logits: number[] = [];
        for (let key = 0; key <= position; key++) {
          let dot = 0;
          for (let d = 0; d < headDim; d++) dot += query[head * headDim + d]! * k[key]![group * headDim + d]!;
          logits.push(dot / Math.sqrt(headDim));
        }
        const top = Math.max(...logits);
        const weights = logits.map((logit) => Math.exp(logit - top));
        const total = weights.reduce((sum, weight) => sum + weight, 0);
        for (let d = 0; d < headDim; d++) {
          let sum = 0;
          for (let key = 0; key <= position; key++) sum += (weights[key]! / total) * v[key]![group * headDim + d]!;
          out.push(sum);
        }
      }
      return out;
    });
    x = x.map((vector, position) => plus(vector, affine(attended[position]!, get('self_attn.o_proj.weight'))));
    x = x.map((vector) => {
      const n = rms(vector, get('post_attention_layernorm.weight'), config.rmsNormEps);
      const gate = affine(n, get('mlp.gate_proj.weight'));
      const up = affine(n, get('mlp.up_proj.weight'));
      return plus(
        vector,
        affine(
          gate.map((g, index) => (g / (1 + Math.exp(-g))) * up[index]!),
          get('mlp.down_proj.weight'),
        ),
      );
    });
    states.push(x);
  }
  return states;
}

/** The final norm, the head's ReLU hidden layer when it has one, and its projection (only `columns`, when given). */
function applyHead(config: DecoderConfig, parameters: Parameters, state: readonly number[], name: string, columns: readonly number[] | undefined): number[] {
  const spec = config.heads.find((head) => head.name === name)!;
  let input = rms(state, tensor(parameters, 'model.norm.weight'), config.rmsNormEps);
  let outputs: number[];
  if (spec.kind === 'lm') {
    outputs = affine(input, tensor(parameters, config.tieWordEmbeddings ? 'model.embed_tokens.weight' : 'lm_head.weight'));
  } else {
    if (spec.hidden) {
      const hiddenBias = spec.hidden.bias ? tensor(parameters, spec.hidden.bias) : undefined;
      input = affine(input, tensor(parameters, spec.hidden.weight), hiddenBias).map((value) => Math.max(0, value));
    }
    outputs = affine(input, tensor(parameters, spec.weight), spec.bias ? tensor(parameters, spec.bias) : undefined);
  }
  return columns ? columns.map((column) => outputs[column]!) : outputs;
}

function rms(vector: readonly number[], weight: Float64Array, eps: number): number[] {
  const meanSquare = vector.reduce((sum, value) => sum + value * value, 0) / vector.length;
  const scale = 1 / Math.sqrt(meanSquare + eps);
  return vector.map((value, index) => value * scale * weight[index]!);
}

/** `W·x + b` with `W` stored `[out, in]`. */
function affine(input: readonly number[], weight: Float64Array, bias?: Float64Array): number[] {
  const inputs = input.length;
  const outputs = weight.length / inputs;
  const out = new Array<number>(outputs);
  for (let row = 0; row < outputs; row++) {
    let sum = bias ? bias[row]! : 0;
    const base = row * inputs;
    for (let column = 0; column < inputs; column++) sum += weight[base + column]! * input[column]!;
    out[row] = sum;
  }
  return out;
}

function rope(vector: readonly number[], position: number, headDim: number, theta: number): number[] {
  const out = vector.slice();
  const half = headDim / 2;
  for (let i = 0; i < half; i++) {
    const angle = position * theta ** (-(2 * i) / headDim);
    const cos = Math.cos(angle);
    const sin = Math.sin(angle);
    for (let base = 0; base < vector.length; base += headDim) {
      const a = vector[base + i]!;
      const b = vector[base + i + half]!;
      out[base + i] = a * cos - b * sin;
      out[base + i + half] = b * cos + a * sin;
    }
  }
  return out;
}

function plus(a: readonly number[], b: readonly number[]): number[] {
  return a.map((value, index) => value + b[index]!);
}
