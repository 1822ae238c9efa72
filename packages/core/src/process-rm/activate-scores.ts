import type { ReadingRecipe } from '../recipes/reading-recipe.js';

/**
 * Turns a head's outputs at `count` positions (`width` values each) into one score per position,
 * as the recipe says. Computed in float64, stored as float32.
 */
export function activateScores(values: Float32Array, count: number, width: number, recipe: ReadingRecipe): Float32Array {
  const scores = new Float32Array(count);
  for (let position = 0; position < count; position++) {
    const base = position * width;
    if (recipe.activation === 'softmax') {
      let max = -Infinity;
      for (let column = 0; column < width; column++) max = Math.max(max, values[base + column]!);
      let total = 0;
      for (let column = 0; column < width; column++) total += Math.exp(values[base + column]! - max);
      scores[position] = Math.exp(values[base + recipe.positiveIndex]! - max) / total;
    } else {
      const raw = values[base]!;
      scores[position] = recipe.activation === 'sigmoid' ? 1 / (1 + Math.exp(-raw)) : raw;
    }
  }
  return scores;
}
