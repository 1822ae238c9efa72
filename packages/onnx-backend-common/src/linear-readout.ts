import { headWidth, type DecoderModel } from '@reward-lens/core/internal';

/** The final norm and the heads, to apply a head to an inner layer's hidden state in JavaScript. */
export interface ReadoutWeights {
  hiddenSize: number;
  finalNorm: Float32Array;
  eps: number;
  heads: Map<string, { weight: Float32Array; bias: Float32Array | undefined; width: number }>;
}

/** The readout weights of the decoder a graph was exported from (validated by the caller). */
export function readoutWeightsOf(model: DecoderModel): ReadoutWeights {
  const { config, tensors } = model;
  const tensor = (name: string) => {
    const found = tensors.get(name);
    if (!found) throw new Error(`tensor "${name}" is missing after validation`);
    return found;
  };
  const heads: ReadoutWeights['heads'] = new Map();
  for (const head of config.heads) {
    const width = headWidth(config, head);
    if (head.kind === 'lm') {
      heads.set(head.name, { weight: tensor(config.tieWordEmbeddings ? 'model.embed_tokens.weight' : 'lm_head.weight'), bias: undefined, width });
    } else {
      heads.set(head.name, { weight: tensor(head.weight), bias: head.bias === undefined ? undefined : tensor(head.bias), width });
    }
  }
  return { hiddenSize: config.hiddenSize, finalNorm: tensor('model.norm.weight'), eps: config.rmsNormEps, heads };
}

/**
 * `head(rmsNorm(h))` for `count` hidden states `[count, hidden]`, in float64 with one float32
 * rounding per value (as backend-tiny computes it). With `columns`, only those rows of the head.
 */
export function applyReadout(
  weights: ReadoutWeights,
  headName: string,
  hidden: Float32Array,
  count: number,
  columns: readonly number[] | undefined,
): Float32Array {
  const head = weights.heads.get(headName);
  if (!head) throw new Error(`no readout weights for head "${headName}"`);
  const { hiddenSize, finalNorm, eps } = weights;
  const selected = columns ?? Array.from({ length: head.width }, (_, column) => column);
  const out = new Float32Array(count * selected.length);
  const normed = new Float32Array(hiddenSize);
  for (let token = 0; token < count; token++) {
    const offset = token * hiddenSize;
    let sumOfSquares = 0;
    for (let index = 0; index < hiddenSize; index++) sumOfSquares += hidden[offset + index]! * hidden[offset + index]!;
    const inverseRoot = 1 / Math.sqrt(sumOfSquares / hiddenSize + eps);
    for (let index = 0; index < hiddenSize; index++) normed[index] = hidden[offset + index]! * inverseRoot * finalNorm[index]!;
    selected.forEach((column, index) => {
      let sum = head.bias?.[column] ?? 0;
      const row = column * hiddenSize;
      for (let k = 0; k < hiddenSize; k++) sum += normed[k]! * head.weight[row + k]!;
      out[token * selected.length + index] = sum;
    });
  }
  return out;
}
