export {
  keepsSolutionVerbatim,
  plainValueRecipe,
  recipeGauge,
  type ReadActivation,
  type ReadAnchor,
  type ReadingRecipe,
  type SequenceTemplate,
} from './reading-recipe.js';
