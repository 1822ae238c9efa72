import { type BackendV1, type ReadGradientsV1, type ReadRequestV1, Capability, InvalidInputError, UnsupportedCapabilityError } from '@reward-lens/spec';

import type { ReadingRecipe } from '../recipes/reading-recipe.js';
import type { CharSpan } from '@reward-lens/tokenizers';
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
  /** The padding token (integrated gradients' default baseline is its embedding). */
  padTokenId: number;
  /** The call's signal, checked before each backward pass. */
  signal?: AbortSignal | undefined;
}

export interface StepGradientOptions extends ScoringOptions {
  /** Which steps to explain (0-based); default every step. */
  steps?: readonly number[];
  /** `'norm'` (default): per token the gradient's norm and gradient×input; `'vector'`: the gradient vectors as well. */
  output?: 'norm' | 'vector';
  /**
   * Also integrated gradients (Sundararajan et al. 2017): the gradient averaged over `steps`
   * points of the straight path from a baseline to the input embeddings (the midpoints
   * α = (k + ½)/steps), times (input − baseline), summed per token. The baseline is every token's
   * embedding replaced by the padding token's (`'pad'`, default) or by zeros (`'zero'`): on the
   * zero path RMSNorm's epsilon dominates near α = 0, where the score moves a lot within α < 1e-4,
   * so no fixed number of points makes the attributions add up there (`integration` says by how
   * much they miss). Needs ACTIVATIONS; costs `steps + 1` backward rows per explained step.
   */
  integratedGradients?: { steps: number; baseline?: IntegrationBaseline };
}

/** What integrated gradients integrate from: the padding token's embedding at every position, or zeros. */
export type IntegrationBaseline = 'pad' | 'zero';

/** How well integrated gradients add up: their sum against score(input) − score(baseline). */
export interface IntegrationCheck {
  steps: number;
  baseline: IntegrationBaseline;
  /** Σ over tokens of the integrated gradients. */
  sum: number;
  scoreAtInput: number;
  scoreAtBaseline: number;
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
  /** With `integratedGradients`: per token, its integrated gradient (zero after the read position). */
  integratedGradients?: Float32Array;
  /** With `integratedGradients`: the completeness check (the sum approaches the score difference as steps grow). */
  integration?: IntegrationCheck;
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
  const integrationSteps = options.integratedGradients?.steps;
  if (integrationSteps !== undefined) {
    if (!Number.isInteger(integrationSteps) || integrationSteps < 1 || integrationSteps > 4096) {
      throw new InvalidInputError(`integratedGradients.steps must be an integer from 1 to 4096, got ${integrationSteps}`, {
        location: 'options.integratedGradients',
      });
    }
    if (!readsEmbeddings) throw new UnsupportedCapabilityError({ capability: 'ACTIVATIONS', backend: backend.name, operation: 'integrated gradients' });
    const baseline = options.integratedGradients?.baseline ?? 'pad';
    if (baseline !== 'pad' && baseline !== 'zero') {
      throw new InvalidInputError(`integratedGradients.baseline must be 'pad' or 'zero', got ${JSON.stringify(baseline)}`, {
        location: 'options.integratedGradients',
      });
    }
  }
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
      context.signal?.throwIfAborted();
      steps.push(...(await explainSteps(context, pair, wanted.slice(start, start + context.batchSize), readsEmbeddings, options.output === 'vector')));
    }
    if (integrationSteps !== undefined && steps.length > 0) {
      const baseline = options.integratedGradients?.baseline ?? 'pad';
      const embeddings = await readEmbeddings(context, pair.inputIds);
      const start =
        baseline === 'zero'
          ? new Float32Array(embeddings.length)
          : await readEmbeddings(context, new Int32Array(pair.inputIds.length).fill(context.padTokenId));
      for (const explained of steps) {
        Object.assign(explained, await integrateStep(context, pair, explained, { embeddings, start, baseline }, integrationSteps));
      }
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
  const all = Array.from({ length }, (_, position) => position);
  const reads: ReadRequestV1[] = [
    { kind: 'head', head: recipe.head, positions: steps.map((step) => [pair.readPositions[step]!]), ...(columns ? { columns } : {}) },
  ];
  if (readsEmbeddings) reads.push({ kind: 'hidden', layer: 0, positions: steps.map((_, row) => (row === 0 ? all : [])) });
  const scores: number[] = [];
  const result = await backend.doBackward!({
    ...repeatedRows(pair, rows),
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

/** The input embeddings of tokens, `[tokens, hiddenSize]` (a layer-0 read). */
async function readEmbeddings(context: DerivativeContext, inputIds: Int32Array): Promise<Float32Array> {
  const length = inputIds.length;
  const result = await context.backend.doForward({
    batchSize: 1,
    sequenceLength: length,
    inputIds,
    attentionMask: new Uint8Array(length).fill(1),
    reads: [{ kind: 'hidden', layer: 0, positions: [Array.from({ length }, (_, position) => position)] }],
  });
  return result.reads[0]!.values[0]!;
}

/**
 * Integrated gradients of one step's score: the embeddings at `start + α (input − start)`, one
 * backward row per α (rows are independent), plus a row at α = 0 for the baseline's score.
 */
async function integrateStep(
  context: DerivativeContext,
  pair: TokenizedPair,
  explained: StepTokenGradients,
  path: { embeddings: Float32Array; start: Float32Array; baseline: IntegrationBaseline },
  steps: number,
): Promise<Pick<StepTokenGradients, 'integratedGradients' | 'integration'>> {
  const { embeddings, start: origin } = path;
  const { backend, recipe, columns } = context;
  const hiddenSize = backend.info.hiddenSize;
  const length = pair.inputIds.length;
  const alphas = [...Array.from({ length: steps }, (_, k) => (k + 0.5) / steps), 0];
  const averaged = new Float64Array(length * hiddenSize);
  let scoreAtBaseline = Number.NaN;
  for (let start = 0; start < alphas.length; start += context.batchSize) {
    context.signal?.throwIfAborted();
    const chunk = alphas.slice(start, start + context.batchSize);
    const scores: number[] = [];
    const result = await backend.doBackward!({
      ...repeatedRows(pair, chunk.length),
      inputEmbeddings: chunk.map((alpha) => embeddings.map((value, index) => origin[index]! + alpha * (value - origin[index]!))),
      reads: [{ kind: 'head', head: recipe.head, positions: chunk.map(() => [explained.readTokenIndex]), ...(columns ? { columns } : {}) }],
      wrt: { parameters: false, inputEmbeddings: true },
      readGradients: (forward): ReadGradientsV1 => [
        forward[0]!.values.map((values, row) => {
          scores.push(scoreOfOutputs(values, recipe));
          return chunk[row] === 0 ? new Float32Array(values.length) : scoreGradient(values, recipe);
        }),
      ],
    });
    chunk.forEach((alpha, row) => {
      if (alpha === 0) {
        scoreAtBaseline = scores[row]!;
        return;
      }
      const gradient = result.inputEmbeddings![row]!;
      for (let index = 0; index < averaged.length; index++) averaged[index] = averaged[index]! + gradient[index]! / steps;
    });
  }
  const integratedGradients = new Float32Array(length);
  let sum = 0;
  for (let token = 0; token < length; token++) {
    let dot = 0;
    for (let index = 0; index < hiddenSize; index++) {
      const at = token * hiddenSize + index;
      dot += averaged[at]! * (embeddings[at]! - origin[at]!);
    }
    integratedGradients[token] = dot;
    sum += dot;
  }
  return { integratedGradients, integration: { steps, baseline: path.baseline, sum, scoreAtInput: explained.score, scoreAtBaseline } };
}

/** The pair's tokens as `rows` identical rows of one batch (each row explains its own score). */
function repeatedRows(pair: TokenizedPair, rows: number) {
  const length = pair.inputIds.length;
  const inputIds = new Int32Array(rows * length);
  for (let row = 0; row < rows; row++) inputIds.set(pair.inputIds, row * length);
  return { batchSize: rows, sequenceLength: length, inputIds, attentionMask: new Uint8Array(rows * length).fill(1) };
}
