import { padRows, type BackendV1, type ForwardRequestV1, type ReadGradientsV1, type ReadingRecipe, type ReadResultV1 } from '@reward-lens/core';
import type { TrainingExample } from '../data/training-example.js';
import { nextTokenLoss } from './next-token-loss.js';
import { stepCrossEntropy } from './step-cross-entropy.js';

/** Where the auxiliary loss reads: the positions before each token of the correct steps (each predicts the token after it). */
export function languageModelPositions(example: TrainingExample): number[] {
  const [start, end] = example.correctText;
  return Array.from({ length: Math.max(0, end - start) }, (_, index) => start - 1 + index);
}

/** The name of the language-model head an auxiliary next-token loss reads (tied to the embeddings). */
export const auxiliaryLanguageModelHead = 'lm';

/**
 * A batch as one padded forward request reading the recipe's head at every step of every row,
 * and, with `languageModel`, the language-model head at every position of each row's correct text.
 */
export function batchRequest(
  examples: readonly TrainingExample[],
  recipe: ReadingRecipe,
  columns: number[] | undefined,
  padTokenId: number,
  options: { languageModel?: boolean } = {},
): ForwardRequestV1 {
  const { sequenceLength, inputIds, attentionMask } = padRows(
    examples.map((example) => example.inputIds),
    { padTokenId },
  );
  const positions = examples.map((example) => example.readPositions.filter((position) => position >= 0));
  const reads: ForwardRequestV1['reads'][number][] = [{ kind: 'head', head: recipe.head, positions, ...(columns ? { columns } : {}) }];
  if (options.languageModel) reads.push({ kind: 'head', head: auxiliaryLanguageModelHead, positions: examples.map(languageModelPositions) });
  return { batchSize: examples.length, sequenceLength, inputIds, attentionMask, reads };
}

export interface BatchLoss {
  /** Mean cross-entropy over the steps with a target. */
  loss: number;
  /** With the auxiliary loss: the mean next-token cross-entropy over the correct text's tokens. */
  languageModelLoss?: number;
  /** Steps in the loss. */
  steps: number;
  /** Per row, P(correct) at every step (NaN where a step has no read). */
  probabilities: Float64Array[];
}

/**
 * The mean per-step cross-entropy of a batch's reads and its gradient in the reads (each
 * counted step contributes `1/steps`).
 */
export function batchLoss(
  examples: readonly TrainingExample[],
  reads: readonly ReadResultV1[],
  recipe: ReadingRecipe,
  options: { languageModelWeight?: number } = {},
): { value: BatchLoss; gradients: ReadGradientsV1 } {
  const read = reads[0]!;
  const width = read.width;
  const counted = examples.reduce(
    (sum, example) => sum + example.targets.filter((target, step) => !Number.isNaN(target) && example.readPositions[step]! >= 0).length,
    0,
  );
  let total = 0;
  const probabilities: Float64Array[] = [];
  const gradients = examples.map((example, row) => {
    const values = read.values[row]!;
    const gradient = new Float32Array(values.length);
    const rowProbabilities = new Float64Array(example.targets.length).fill(Number.NaN);
    let slot = 0;
    example.targets.forEach((target, step) => {
      if (example.readPositions[step]! < 0) return;
      const outputs = values.subarray(slot * width, (slot + 1) * width);
      const result = stepCrossEntropy(outputs, Number.isNaN(target) ? 0 : target, recipe);
      rowProbabilities[step] = result.probability;
      if (!Number.isNaN(target)) {
        total += result.loss;
        for (let index = 0; index < width; index++) gradient[slot * width + index] = result.gradient[index]! / counted;
      }
      slot++;
    });
    probabilities.push(rowProbabilities);
    return gradient;
  });
  const value: BatchLoss = { loss: counted > 0 ? total / counted : Number.NaN, steps: counted, probabilities };
  if (reads.length < 2) return { value, gradients: [gradients] };
  const languageModel = nextTokenLoss(
    examples.map((example) => example.inputIds),
    examples.map(languageModelPositions),
    reads[1]!.values,
    reads[1]!.width,
    options.languageModelWeight ?? 1,
  );
  value.languageModelLoss = languageModel.loss;
  return { value, gradients: [gradients, languageModel.gradients] };
}

/** A forward pass over a batch with its loss (no gradients): for held-out evaluation. */
export async function forwardLoss(
  backend: BackendV1,
  examples: readonly TrainingExample[],
  recipe: ReadingRecipe,
  columns: number[] | undefined,
  padTokenId: number,
): Promise<BatchLoss> {
  const { reads } = await backend.doForward(batchRequest(examples, recipe, columns, padTokenId));
  return batchLoss(examples, reads, recipe).value;
}
