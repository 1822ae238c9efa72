import type { DecoderModel } from '@reward-lens/spec';
import { referenceLinear, referenceRmsNorm } from './reference-decoder.js';

/**
 * A head of the model applied to one residual-stream vector, in float64, read from the model's
 * `HeadSpec` as Hugging Face's modules compute it (and deliberately not from `describeHead`,
 * which the backends compile): the final norm, then for a head with a hidden layer
 * `relu(score.0 · x + b)` (Qwen2.5-Math-PRM's `score`), then the output projection: the
 * embedding table for a tied LM head, `lm_head.weight` for an untied one, the head's own weight
 * otherwise. With `columns`, only those outputs, in the order asked.
 */
export function referenceHead(model: DecoderModel, state: readonly number[], headName: string, columns?: readonly number[]): number[] {
  const { config, tensors } = model;
  const tensor = (name: string): Float32Array => {
    const found = tensors.get(name);
    if (!found) throw new Error(`the reference head "${headName}" needs tensor "${name}"`);
    return found;
  };
  const head = config.heads.find((candidate) => candidate.name === headName);
  if (!head) throw new Error(`the model has no head named "${headName}"`);
  let x = referenceRmsNorm(state, tensor('model.norm.weight'), config.rmsNormEps);
  let outputs: number[];
  if (head.kind === 'lm') {
    outputs = referenceLinear(x, tensor(config.tieWordEmbeddings ? 'model.embed_tokens.weight' : 'lm_head.weight'));
  } else {
    if (head.hidden) {
      const hidden = referenceLinear(x, tensor(head.hidden.weight), head.hidden.bias === undefined ? undefined : tensor(head.hidden.bias));
      x = hidden.map((value) => Math.max(value, 0));
    }
    outputs = referenceLinear(x, tensor(head.weight), head.bias === undefined ? undefined : tensor(head.bias));
  }
  return columns === undefined ? outputs : columns.map((column) => outputs[column]!);
}
