export {
  keepsSolutionVerbatim,
  plainValueRecipe,
  recipeGauge,
  type ReadActivation,
  type ReadAnchor,
  type ReadingRecipe,
  type SequenceTemplate,
} from './reading-recipe.js';
export {
  mathShepherdRecipe,
  qwen25MathPrmRecipe,
  recipePresets,
  rlhflowLlama31Recipe,
  sequenceClassifierRecipe,
  skyworkPrmRecipe,
  trlTokenClassificationRecipe,
  trlLikelihoodRecipe,
} from './presets.js';
export { resolveRecipe } from './resolve-recipe.js';
export { inferRecipe } from './infer-recipe.js';
