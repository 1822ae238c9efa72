import type { BackendV1 } from '@reward-lens/spec';
import type { PrmTokenizer } from '@reward-lens/tokenizers';
import type { DomainCheck } from '../domain/domain-check.js';
import type { ReadingRecipe } from '../recipes/reading-recipe.js';
import { segmentSolution } from '../segmenter/segment-solution.js';
import type { Segmentation } from '../segmenter/types.js';
import type { DetectionContext } from '../step-detection/detection-features.js';
import { checkDomain } from './check-domain.js';
import { applyLearnedSteps, type StepDetectionSetting } from './learned-steps.js';
import type { NormalizedInput, ScoringInput } from './scoring-input.js';
import type { ScoringOptions, TokenizedBatch } from './tokenized-batch.js';
import { tokenizeInputs } from './tokenize-inputs.js';
import { tokenizePair, type TokenizedPair, type TokenizeOptions } from './tokenize-pair.js';

/** What laying pairs out needs: the tokenizer and recipe, the tokenize options, the learned detector's setting, and the backend it runs on (none on a score source). */
export interface PairLayoutContext {
  tokenizer: PrmTokenizer;
  recipe: ReadingRecipe;
  tokenizeOptions: TokenizeOptions;
  stepDetection: StepDetectionSetting;
  domainChecks: readonly DomainCheck[];
  /** The local backend the learned detector reads; undefined on a score source (no activations to read). */
  backend: BackendV1 | undefined;
  batch: { batchSize: number; padding: 'left' | 'right'; padTokenId: number };
}

/** One pair laid out and mapped to tokens, splitting at the delimiter only. */
export function layOutPair(context: PairLayoutContext, input: NormalizedInput): TokenizedPair {
  return tokenizePair(context.tokenizer, context.recipe, input, context.tokenizeOptions);
}

/** How the learned detector reads the model: a solution laid out as one step, batched as the scoring methods batch. */
export function detectionContext(context: PairLayoutContext & { backend: BackendV1 }): DetectionContext {
  return {
    backend: context.backend,
    ...context.batch,
    layOut: (problem, solution) => tokenizePair(context.tokenizer, context.recipe, { problem, steps: [solution] }, context.tokenizeOptions),
  };
}

/** Tokenizes every input (see `tokenizeInputs`), runs the learned step detector where it applies, then the domain checks. */
export async function layOutBatch(context: PairLayoutContext, inputs: readonly ScoringInput[], options: ScoringOptions): Promise<TokenizedBatch> {
  const { tokenizer, recipe, tokenizeOptions } = context;
  const { batch, normalized, fail } = tokenizeInputs(inputs, options, (input) => tokenizePair(tokenizer, recipe, input, tokenizeOptions));
  const { backend } = context;
  if (backend && context.stepDetection.detector !== undefined) {
    await applyLearnedSteps(
      {
        ...detectionContext({ ...context, backend }),
        tokenize: (input: NormalizedInput, segmentation: Segmentation) => tokenizePair(tokenizer, recipe, input, { ...tokenizeOptions, segmentation }),
        shortfallOf: (input) => segmentSolution(input.solution, { delimiter: tokenizeOptions.delimiter }).delimiterShortfall,
      },
      context.stepDetection,
      normalized,
      batch,
      fail,
    );
  }
  if (context.domainChecks.length > 0) checkDomain(context.domainChecks, normalized, batch);
  return batch;
}
