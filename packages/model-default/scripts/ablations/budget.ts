import { defaultRecipe } from '../default-recipe.js';

/**
 * The budget every arm trains for: the same optimizer steps of the same packed batch size, so the
 * same training tokens (within the packing's slack, about 2%; each arm's JSON has its count).
 * The recipe's first stage is 2,000 steps with a 15,000-item curriculum; the curriculum is
 * scaled with the steps, so it is the same share of every arm's tokens as of that stage's.
 */
export const ablationBudget = {
  steps: 1000,
  batchTokens: defaultRecipe.batchTokens,
  curriculumItems: Math.round((defaultRecipe.curriculumItems * 1000) / defaultRecipe.steps),
  evaluateEvery: 250,
  checkpointEvery: 100,
} as const;
