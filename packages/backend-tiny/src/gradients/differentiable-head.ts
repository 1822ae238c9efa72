import type { DecoderConfig } from '@reward-lens/spec';

/** A tensor of a head, with the name its gradient is reported under. */
export interface NamedTensor {
  name: string;
  values: Float32Array;
}

/**
 * A head as the gradient passes see it: after the final norm, an optional `relu(W·x + b)`
 * hidden layer (Qwen2.5-Math-PRM's `score.0`/`score.2`), then the projection to `width`
 * outputs. Built from the config's head specs alone, so that the backward pass does not depend
 * on how the forward pass stores its heads.
 */
export interface DifferentiableHead {
  name: string;
  width: number;
  weight: NamedTensor;
  bias?: NamedTensor;
  hidden?: { weight: NamedTensor; bias?: NamedTensor };
}

export const embeddingName = 'model.embed_tokens.weight';

/** Every head of `config`, its tensors looked up by name (an LM head tied to the embeddings shares their name). */
export function differentiableHeads(config: DecoderConfig, tensor: (name: string) => Float32Array): Map<string, DifferentiableHead> {
  const parameter = (name: string): NamedTensor => ({ name, values: tensor(name) });
  const heads = new Map<string, DifferentiableHead>();
  for (const spec of config.heads) {
    if (spec.kind === 'lm') {
      heads.set(spec.name, { name: spec.name, width: config.vocabSize, weight: parameter(config.tieWordEmbeddings ? embeddingName : 'lm_head.weight') });
      continue;
    }
    heads.set(spec.name, {
      name: spec.name,
      width: spec.kind === 'value' ? 1 : spec.numLabels,
      weight: parameter(spec.weight),
      ...(spec.bias ? { bias: parameter(spec.bias) } : {}),
      ...(spec.hidden ? { hidden: { weight: parameter(spec.hidden.weight), ...(spec.hidden.bias ? { bias: parameter(spec.hidden.bias) } : {}) } } : {}),
    });
  }
  return heads;
}
