import type { BackendV1, ReadGradientsV1, ReadRequestV1 } from '../backend/v1/backend-v1.js';
import { Capability } from '../capabilities.js';
import type { ReadingRecipe } from '../recipes/reading-recipe.js';
import type { CharSpan } from '../tokenizers/tokenizer.js';
import type { PairErrors } from './process-rm-results.js';
import { scoreGradient, scoreOfOutputs } from './score-derivatives.js';
import type { ScoringOptions, TokenizedBatch } from './tokenized-batch.js';
import type { PairMeta, TokenizedPair } from './tokenize-pair.js';

/** What the derivative methods of `ProcessRM` need of it. */
export interface DerivativeContext {
  backend: BackendV1;
  recipe: ReadingRecipe;
  /** The read columns, resolved to ids (undefined: all of the head). */
  columns: number[] | undefined;
  /** Rows per backward pass. */
  batchSize: number;
}

export interface StepGradientOptions extends ScoringOptions {
  /** Which steps to explain (0-based); default every step. */
  steps?: readonly number[];
  /** `'norm'` (default): per token the gradient's norm and gradient×input; `'vector'`: the gradient vectors as well. */
  output?: 'norm' | 'vector';
}

/** One step's score explained by the input tokens. */
export interface StepTokenGradients {
  step: number;
  score: number;
  /** The position the score is read at: tokens after it have exactly zero gradient (causal attention). */
  readTokenIndex: number;
  /** Per token of the pair, the L2 norm of d(score)/d(the token's input embedding). */
  norms: Float32Array;
  /** Per token, d(score)/d(embedding) · embedding (NaN without the ACTIVATIONS capability, which reads the embeddings). */
  gradientTimesInput: Float32Array;
  /** With `output: 'vector'`: the gradients, `[tokens, hiddenSize]` token-major. */
  vectors?: Float32Array;
}

/** Per pair: its tokens and, per explained step, the tokens' attributions. */
export interface PairStepGradients {
  inputIds: Int32Array;
  /** Per token, its characters in the laid-out text. */
  offsets: CharSpan[];
  steps: StepTokenGradients[];
}

export interface StepGradients {
  hiddenSize: number;
  pairs: PairStepGradients[];
  meta: PairMeta[];
  errors: PairErrors;
}

/**
 * For each pair and each requested step, the gradient of the step's score with respect to each
 * input token's embedding: one backward pass per step, the steps of a pair as rows of one batch
 * (rows are independent, so each row's gradient is its own step's).
 */
export async function computeStepGradients(context: DerivativeContext, batch: TokenizedBatch, options: StepGradientOptions): Promise<StepGradients> {
  const { backend } = context;
  const hiddenSize = backend.info.hiddenSize;
  const readsEmbeddings = (backend.capabilities & Capability.ACTIVATIONS) !== 0;
  const pairs: PairStepGradients[] = [];
  for (const [index, pair] of batch.pairs.entries()) {
    if (batch.errors[index] !== null) {
      pairs.push({ inputIds: pair.inputIds, offsets: pair.offsets, steps: [] });
      continue;
    }
    const wanted = (options.steps ?? pair.steps.map((_, step) => step)).filter(
      (step) => pair.readPositions[step] !== undefined && pair.readPositions[step]! >= 0,
    );
    const steps: StepTokenGradients[] = [];
    for (let start = 0; start < wanted.length; start += context.batchSize) {
      steps.push(...(await explainSteps(context, pair, wanted.slice(start, start + context.batchSize), readsEmbeddings, options.output === 'vector')));
    }
    pairs.push({ inputIds: pair.inputIds, offsets: pair.offsets, steps });
  }
  return { hiddenSize, pairs, meta: batch.pairs.map((pair) => pair.meta), errors: batch.errors };
}

async function explainSteps(
  context: DerivativeContext,
  pair: TokenizedPair,
  steps: number[],
  readsEmbeddings: boolean,
  keepVectors: boolean,
): Promise<StepTokenGradients[]> {
  const { backend, recipe, columns } = context;
  const hiddenSize = backend.info.hiddenSize;
  const length = pair.inputIds.length;
  const rows = steps.length;
  const inputIds = new Int32Array(rows * length);
  for (let row = 0; row < rows; row++) inputIds.set(pair.inputIds, row * length);
  const all = Array.from({ length }, (_, position) => position);
  const reads: ReadRequestV1[] = [
    { kind: 'head', head: recipe.head, positions: steps.map((step) => [pair.readPositions[step]!]), ...(columns ? { columns } : {}) },
  ];
  if (readsEmbeddings) reads.push({ kind: 'hidden', layer: 0, positions: steps.map((_, row) => (row === 0 ? all : [])) });
  const scores: number[] = [];
  const result = await backend.doBackward!({
    batchSize: rows,
    sequenceLength: length,
    inputIds,
    attentionMask: new Uint8Array(rows * length).fill(1),
    reads,
    wrt: { parameters: false, inputEmbeddings: true },
    readGradients: (forward): ReadGradientsV1 => {
      const head = forward[0]!;
      const seeds = head.values.map((values) => {
        scores.push(scoreOfOutputs(values, recipe));
        return scoreGradient(values, recipe);
      });
      return readsEmbeddings ? [seeds, forward[1]!.values.map((values) => new Float32Array(values.length))] : [seeds];
    },
  });
  const embeddings = readsEmbeddings ? result.reads[1]!.values[0]! : undefined;
  return steps.map((step, row) => {
    const vectors = result.inputEmbeddings![row]!;
    const norms = new Float32Array(length);
    const gradientTimesInput = new Float32Array(length).fill(Number.NaN);
    for (let token = 0; token < length; token++) {
      let squares = 0;
      let dot = 0;
      for (let index = 0; index < hiddenSize; index++) {
        const value = vectors[token * hiddenSize + index]!;
        squares += value * value;
        if (embeddings) dot += value * embeddings[token * hiddenSize + index]!;
      }
      norms[token] = Math.sqrt(squares);
      if (embeddings) gradientTimesInput[token] = dot;
    }
    return { step, score: scores[row]!, readTokenIndex: pair.readPositions[step]!, norms, gradientTimesInput, ...(keepVectors ? { vectors } : {}) };
  });
}
