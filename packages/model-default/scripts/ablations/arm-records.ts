import { createOrganism, type ErrorKind, type OrganismItem } from '@reward-lens/organism';
import type { StepRecord } from '@reward-lens/train';
import { organismRecord, splitSeeds, type DefaultRecipe } from '../default-recipe.js';

/**
 * What an arm trains on after the curriculum (which is the recipe's for every arm):
 * - `default`: the recipe's organism stream;
 * - `arithmetic`: the recipe's stream, each record followed by one from an organism that injects
 *   only the arithmetic kinds (same share of correct solutions), so those kinds are oversampled;
 * - `paired`: the organism's matched pairs, each flawed solution followed by its clean twin (one
 *   batch sees both); pairs have no compensating kind, so after every 5 pairs one compensating item
 *   is added, keeping that kind near its share of the recipe's stream (1 in 11 records).
 */
export type DataMix = 'default' | 'arithmetic' | 'paired';

export const arithmeticKinds: readonly ErrorKind[] = ['wrong-result', 'wrong-copy', 'compensating'];

/** Seeds of the extra organisms, away from the recipe's (0, 500) and the evaluation splits' (1000–1003). */
export const mixSeeds = { arithmetic: 2000, compensating: 3000 } as const;

const pairsPerCompensating = 5;

type Label = (item: OrganismItem, id: string) => StepRecord;

function* defaultStream(recipe: DefaultRecipe, label: Label): Generator<StepRecord> {
  const organism = createOrganism({ ...recipe.organism, seed: recipe.seed });
  for (let index = 0; ; index++) yield label(organism.item(index), `train-${index}`);
}

function* arithmeticStream(recipe: DefaultRecipe, label: Label): Generator<StepRecord> {
  const organism = createOrganism({ ...recipe.organism, seed: recipe.seed });
  const arithmetic = createOrganism({ ...recipe.organism, seed: recipe.seed + mixSeeds.arithmetic, errorKinds: arithmeticKinds });
  for (let index = 0; ; index++) {
    yield label(organism.item(index), `train-${index}`);
    yield label(arithmetic.item(index), `arithmetic-${index}`);
  }
}

function* pairedStream(recipe: DefaultRecipe, label: Label): Generator<StepRecord> {
  const organism = createOrganism({ ...recipe.organism, seed: recipe.seed });
  const compensating = createOrganism({ ...recipe.organism, seed: recipe.seed + mixSeeds.compensating, errorKinds: ['compensating'], correctFraction: 0 });
  for (let index = 0; ; index++) {
    const pair = organism.pair(index);
    yield label(pair.flawed, `pair-${index}-flawed`);
    yield label(pair.clean, `pair-${index}-clean`);
    if ((index + 1) % pairsPerCompensating === 0) {
      const extra = (index + 1) / pairsPerCompensating - 1;
      yield label(compensating.item(extra), `compensating-${extra}`);
    }
  }
}

const streams: Record<DataMix, (recipe: DefaultRecipe, label: Label) => Generator<StepRecord>> = {
  default: defaultStream,
  arithmetic: arithmeticStream,
  paired: pairedStream,
};

/** An arm's training stream: the recipe's curriculum, then its mix; the same every time it is opened. */
export function* armRecords(recipe: DefaultRecipe, mix: DataMix): Generator<StepRecord> {
  const label: Label = (item, id) => organismRecord(item, id, recipe.tokenLabels);
  const easy = createOrganism({ ...recipe.organism, seed: recipe.seed + splitSeeds.curriculum, steps: [2, 5], maxNumber: 20 });
  for (let index = 0; index < recipe.curriculumItems; index++) yield label(easy.item(index), `curriculum-${index}`);
  yield* streams[mix](recipe, label);
}
