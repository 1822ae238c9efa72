/** The decoder families whose forward pass reward-lens implements (they share one block layout). */
export type DecoderArchitecture = 'llama' | 'mistral' | 'qwen2';

/**
 * A hidden layer before a head's output projection: `relu(W·x + b)`, `W` of `[hidden, hidden]`
 * (Qwen2.5-Math-PRM's `score` is `Linear(hidden, hidden) → ReLU → Linear(hidden, 2)`).
 */
export interface HeadHiddenLayer {
  weight: string;
  bias?: string;
}

/**
 * A reward head on top of the decoder. Weight names follow Hugging Face conventions. What
 * applying it means (final norm, hidden layer, output projection) is `describeHead`'s
 * description, which every backend compiles.
 */
export type HeadSpec =
  | { name: string; kind: 'lm' }
  | { name: string; kind: 'token-classification'; numLabels: number; weight: string; bias?: string; hidden?: HeadHiddenLayer }
  | { name: string; kind: 'value'; weight: string; bias?: string; hidden?: HeadHiddenLayer };

/**
 * A Llama / Mistral / Qwen2 decoder, in the terms of Hugging Face's `config.json`.
 * Tensors are stored `[out, in]` row-major, as PyTorch's `nn.Linear` stores them.
 */
export interface DecoderConfig {
  architecture: DecoderArchitecture;
  hiddenSize: number;
  numLayers: number;
  numHeads: number;
  /** Key/value heads; fewer than `numHeads` is grouped-query attention. */
  numKvHeads: number;
  /** Defaults to `hiddenSize / numHeads`. */
  headDim: number;
  intermediateSize: number;
  vocabSize: number;
  maxPositions: number;
  ropeTheta: number;
  rmsNormEps: number;
  tieWordEmbeddings: boolean;
  /** Biases on the q, k and v projections (Qwen2). */
  attentionBias: boolean;
  heads: HeadSpec[];
}

/** Shapes of every tensor a config needs, by Hugging Face name. */
export function expectedTensorShapes(config: DecoderConfig): Map<string, number[]> {
  const { hiddenSize, intermediateSize, vocabSize, numHeads, numKvHeads, headDim } = config;
  const shapes = new Map<string, number[]>();
  shapes.set('model.embed_tokens.weight', [vocabSize, hiddenSize]);
  for (let layer = 0; layer < config.numLayers; layer++) {
    const prefix = `model.layers.${layer}`;
    shapes.set(`${prefix}.input_layernorm.weight`, [hiddenSize]);
    shapes.set(`${prefix}.self_attn.q_proj.weight`, [numHeads * headDim, hiddenSize]);
    shapes.set(`${prefix}.self_attn.k_proj.weight`, [numKvHeads * headDim, hiddenSize]);
    shapes.set(`${prefix}.self_attn.v_proj.weight`, [numKvHeads * headDim, hiddenSize]);
    if (config.attentionBias) {
      shapes.set(`${prefix}.self_attn.q_proj.bias`, [numHeads * headDim]);
      shapes.set(`${prefix}.self_attn.k_proj.bias`, [numKvHeads * headDim]);
      shapes.set(`${prefix}.self_attn.v_proj.bias`, [numKvHeads * headDim]);
    }
    shapes.set(`${prefix}.self_attn.o_proj.weight`, [hiddenSize, numHeads * headDim]);
    shapes.set(`${prefix}.post_attention_layernorm.weight`, [hiddenSize]);
    shapes.set(`${prefix}.mlp.gate_proj.weight`, [intermediateSize, hiddenSize]);
    shapes.set(`${prefix}.mlp.up_proj.weight`, [intermediateSize, hiddenSize]);
    shapes.set(`${prefix}.mlp.down_proj.weight`, [hiddenSize, intermediateSize]);
  }
  shapes.set('model.norm.weight', [hiddenSize]);
  for (const head of config.heads) {
    if (head.kind === 'lm') {
      if (!config.tieWordEmbeddings) shapes.set('lm_head.weight', [vocabSize, hiddenSize]);
    } else {
      const width = head.kind === 'value' ? 1 : head.numLabels;
      if (head.hidden) {
        shapes.set(head.hidden.weight, [hiddenSize, hiddenSize]);
        if (head.hidden.bias) shapes.set(head.hidden.bias, [hiddenSize]);
      }
      shapes.set(head.weight, [width, hiddenSize]);
      if (head.bias) shapes.set(head.bias, [width]);
    }
  }
  return shapes;
}

/** Outputs per position of a head. */
export function headWidth(config: DecoderConfig, head: HeadSpec): number {
  if (head.kind === 'lm') return config.vocabSize;
  if (head.kind === 'value') return 1;
  return head.numLabels;
}

/** Fills in defaults and checks that the numbers fit together. */
export function defineDecoderConfig(config: Omit<DecoderConfig, 'headDim'> & { headDim?: number }): DecoderConfig {
  const headDim = config.headDim ?? config.hiddenSize / config.numHeads;
  const full: DecoderConfig = { ...config, headDim };
  const problems: string[] = [];
  const positive = ['hiddenSize', 'numLayers', 'numHeads', 'numKvHeads', 'intermediateSize', 'vocabSize', 'maxPositions'] as const;
  for (const key of positive) if (!Number.isInteger(full[key]) || full[key] < 1) problems.push(`${key} must be a positive integer (got ${full[key]})`);
  if (!Number.isInteger(headDim) || headDim < 2 || headDim % 2 !== 0) problems.push(`headDim must be an even integer (got ${headDim})`);
  if (full.numHeads % full.numKvHeads !== 0) problems.push(`numHeads (${full.numHeads}) must be a multiple of numKvHeads (${full.numKvHeads})`);
  if (!(full.ropeTheta > 0)) problems.push(`ropeTheta must be positive`);
  if (!(full.rmsNormEps > 0)) problems.push(`rmsNormEps must be positive`);
  const names = new Set<string>();
  for (const head of full.heads) {
    if (names.has(head.name)) problems.push(`two heads are named "${head.name}"`);
    names.add(head.name);
  }
  if (problems.length > 0) throw new RangeError(`Invalid decoder config: ${problems.join('; ')}`);
  return full;
}
