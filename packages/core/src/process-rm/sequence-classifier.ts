import { type BackendV1, InvalidInputError } from '@reward-lens/spec';
import { sequenceClassifierRecipe } from '../recipes/presets.js';
import type { ReadingRecipe } from '../recipes/reading-recipe.js';

/** The sequence-classifier recipe on the backend's one-output reward head (its value head, else its first head of width 1). */
export function sequenceClassifierRecipeFor(model: BackendV1): ReadingRecipe {
  const rewardHead = model.info.heads.find((head) => head.kind === 'value') ?? model.info.heads.find((head) => head.width === 1);
  if (!rewardHead) {
    throw new InvalidInputError(
      `backend "${model.name}" has no one-output reward head (heads: ${model.info.heads.map((head) => `${head.name} (${head.width})`).join(', ')})`,
    );
  }
  return { ...sequenceClassifierRecipe, head: rewardHead.name };
}
