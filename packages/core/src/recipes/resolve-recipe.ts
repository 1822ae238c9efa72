import { InvalidInputError } from '@reward-lens/spec';
import { recipePresets } from './presets.js';
import type { ReadingRecipe } from './reading-recipe.js';

/** A recipe by preset name, or the recipe itself. */
export function resolveRecipe(recipe: string | ReadingRecipe): ReadingRecipe {
  if (typeof recipe !== 'string') return recipe;
  const preset = recipePresets[recipe];
  if (!preset) throw new InvalidInputError(`unknown recipe "${recipe}" (known: ${Object.keys(recipePresets).join(', ')})`);
  return preset;
}
