import type { BackendV1 } from '@reward-lens/spec';
import type { PrmTokenizer } from '@reward-lens/tokenizers';
import type { DomainCheck } from '../domain/domain-check.js';
import type { ReadingRecipe } from '../recipes/reading-recipe.js';
import { checkDomain } from './check-domain.js';
import type { DetectionContext } from './detection-features.js';
import type { StepDetectionSetting } from './learned-steps.js';
import type { NormalizedInput, ScoringInput } from './scoring-input.js';
import type { ScoringOptions, TokenizedBatch } from './tokenized-batch.js';
import { settleSteps } from './settle-steps.js';
import { checkInputs, tokenizeChecked } from './tokenize-inputs.js';
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

/**
 * Settles every input's steps first (`settleSteps`: the delimiter, then the learned detector where
 * it applies), then tokenizes each pair once with them, then runs the domain checks.
 */
export async function layOutBatch(context: PairLayoutContext, inputs: readonly ScoringInput[], options: ScoringOptions): Promise<TokenizedBatch> {
  const { tokenizer, recipe, tokenizeOptions, backend } = context;
  const checked = checkInputs(inputs, options);
  const detection = backend && context.stepDetection.detector !== undefined ? detectionContext({ ...context, backend }) : undefined;
  const segmentations = await settleSteps({ tokenizer, tokenizeOptions, stepDetection: context.stepDetection, detection }, checked);
  const { batch, normalized } = tokenizeChecked(checked, (input, index) => {
    const segmentation = segmentations[index];
    return tokenizePair(tokenizer, recipe, input, segmentation ? { ...tokenizeOptions, segmentation } : tokenizeOptions);
  });
  if (context.domainChecks.length > 0) checkDomain(context.domainChecks, normalized, batch);
  return batch;
}
