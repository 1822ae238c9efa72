import type { DecoderConfig } from '@reward-lens/core';
import { createOrganism, defaultOrganismOptions, organismDecoderConfig, type OrganismItem, type OrganismOptions } from '@reward-lens/organism';
import type { StepRecord } from '@reward-lens/train';

/**
 * How the default PRM is made: the data, the model and the training settings, all from seeds, so
 * `pnpm --filter @reward-lens/model-default retrain` makes the shipped model again.
 */
export interface DefaultRecipe {
  /** Seeds initialisation and the training stream. */
  seed: number;
  config: DecoderConfig;
  steps: number;
  batchTokens: number;
  learningRate: number;
  warmupSteps: number;
  /** Weight of the auxiliary next-token loss on the correct steps. */
  languageModelWeight: number;
  /** The first records come from an easier organism (2–5 steps, numbers up to 20): a curriculum. */
  curriculumItems: number;
  /** The organism the model is for (and the later records come from). */
  organism: Omit<OrganismOptions, 'seed'>;
  /** Held-out records scored during training. */
  heldOutItems: number;
  /** Train the head at every token too, on where each wrong step departs from the correct one (`StepRecord.correctPrefix`). */
  tokenLabels: boolean;
  /**
   * The stages after the first, in order: each is fine-tuned from the previous stage's weights on
   * the records of the stream that come after the previous stages' (fresh optimizer moments, its
   * own warm-up and cosine decay), and may grow the model first (`numLayers`).
   */
  continuations: readonly ContinuationStage[];
  /**
   * How the shipped model is read (its `config.json` names it): the training recipe's layout and
   * head, with the model's own language-model head bounding each step (`trl-likelihood`).
   */
  readingRecipe: string;
}

export interface ContinuationStage {
  steps: number;
  learningRate: number;
  warmupSteps: number;
  /** Grow the model to this many layers first (block expansion: the new blocks start as the identity). */
  numLayers?: number;
}

export const defaultRecipe: DefaultRecipe = {
  seed: 0,
  config: organismDecoderConfig({ hiddenSize: 128, numLayers: 4, numHeads: 4, intermediateSize: 384 }),
  steps: 2000,
  batchTokens: 4096,
  learningRate: 2e-3,
  warmupSteps: 100,
  languageModelWeight: 1,
  curriculumItems: 15_000,
  organism: { ...defaultOrganismOptions },
  heldOutItems: 300,
  tokenLabels: true,
  // Measured: the first stage's held-out loss was still falling at its end; this stage took its
  // held-out ProcessBench F1 (threshold 0.5) from 0.517 to 0.694 (peak 2e-3 reached 0.674).
  continuations: [{ steps: 2800, learningRate: 1e-3, warmupSteps: 100 }],
  // Measured on the same weights (organism test seed 1002, thresholds chosen on seed 1001): read
  // with the classifier alone, F1 0.705 and wrong results found 13% of the time; bounded by the
  // model's likelihood of the solution's tokens, F1 0.986 and 99% (scripts/ablations/results).
  readingRecipe: 'trl-likelihood',
};

/**
 * The organism seeds of each split. Training draws from its own seeds; the held-out, calibration
 * and test splits are items of other seeds, so no split's problems were generated for another
 * (the retraining script also checks that no test solution appears in the training stream).
 */
export const splitSeeds = { curriculum: 500, heldOut: 1000, calibration: 1001, test: 1002, pairs: 1003 } as const;

function commonPrefixLength(left: string, right: string): number {
  let length = 0;
  while (length < left.length && length < right.length && left[length] === right[length]) length++;
  return length;
}

/**
 * A record with prefix labels: a step is correct when it and every step before it are
 * (Math-Shepherd's convention). With `tokenLabels`, also where the first wrong step departs from
 * what a correct solution writes there (`OrganismItem.expectedStep`), for token-level training.
 */
export function organismRecord(item: OrganismItem, id: string, tokenLabels = false): StepRecord {
  const error = item.firstErrorStep;
  const record: StepRecord = {
    id,
    problem: item.problem,
    steps: [...item.steps],
    stepLabels: item.steps.map((_, step) => (error === -1 || step < error ? 1 : 0)),
  };
  if (!tokenLabels) return record;
  const departure = error === -1 || item.expectedStep === null ? 0 : commonPrefixLength(item.steps[error]!, item.expectedStep);
  return { ...record, correctPrefix: item.steps.map((step, index) => (error === -1 || index < error ? step.length : index === error ? departure : 0)) };
}

/**
 * The same item labelled as an outcome reward model is trained: only the last step has a label,
 * whether the final answer is right (a right answer reached through a flawed step counts as right).
 */
export function outcomeRecord(item: OrganismItem, id: string): StepRecord {
  return {
    id,
    problem: item.problem,
    steps: [...item.steps],
    stepLabels: item.steps.map((_, step) => (step < item.steps.length - 1 ? Number.NaN : item.finalAnswerCorrect ? 1 : 0)),
  };
}

/** Which labels a model is trained on: every step's (a PRM) or the final answer's only (an ORM). */
export type Supervision = 'process' | 'outcome';

/**
 * The training stream: the curriculum's items, then the organism's, from the recipe's seeds; the
 * same every time it is opened. `outcome` labels the same items for an outcome reward model;
 * `from` skips the first records (those a first stage read).
 */
export function* trainingRecords(recipe: DefaultRecipe, supervision: Supervision = 'process', from = 0): Generator<StepRecord> {
  const label = supervision === 'process' ? (item: OrganismItem, id: string) => organismRecord(item, id, recipe.tokenLabels) : outcomeRecord;
  const easy = createOrganism({ ...recipe.organism, seed: recipe.seed + splitSeeds.curriculum, steps: [2, 5], maxNumber: 20 });
  for (let index = from; index < recipe.curriculumItems; index++) yield label(easy.item(index), `curriculum-${index}`);
  const organism = createOrganism({ ...recipe.organism, seed: recipe.seed });
  for (let index = Math.max(0, from - recipe.curriculumItems); ; index++) yield label(organism.item(index), `train-${index}`);
}

/** `count` items of a split's seed, with the recipe's organism settings. */
export function splitItems(recipe: DefaultRecipe, split: Exclude<keyof typeof splitSeeds, 'curriculum' | 'pairs'>, count: number): OrganismItem[] {
  return createOrganism({ ...recipe.organism, seed: splitSeeds[split] }).items(count);
}
