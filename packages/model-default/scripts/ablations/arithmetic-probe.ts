import { createOrganism, type OrganismItem } from '@reward-lens/organism';
import type { DefaultRecipe } from '../default-recipe.js';
import { arithmeticKinds } from './arm-records.js';

/** A seed no split or training stream uses. */
export const probeSeed = 1004;

/**
 * A larger sample of the kinds the model misses, to narrow their rates beyond the test split's
 * ~100 items per kind: erroneous items only, of the arithmetic kinds, from seed 1004. Scored at the
 * threshold chosen on the calibration split, as the test split is.
 */
export function arithmeticProbeItems(recipe: DefaultRecipe, count: number): OrganismItem[] {
  return createOrganism({ ...recipe.organism, seed: probeSeed, errorKinds: arithmeticKinds, correctFraction: 0 }).items(count);
}
