import type { ReadingRecipe } from '../recipes/reading-recipe.js';

/*
 * A step's score as a function of the head's outputs at its read position (the recipe's
 * activation: the raw value, its sigmoid, or the positive class's softmax probability), with
 * its gradient and its Hessian-vector product in those outputs, in float64.
 */

function softmax(outputs: ArrayLike<number>): number[] {
  let maximum = -Infinity;
  for (let index = 0; index < outputs.length; index++) maximum = Math.max(maximum, outputs[index]!);
  const exponentials = Array.from({ length: outputs.length }, (_, index) => Math.exp(outputs[index]! - maximum));
  const total = exponentials.reduce((sum, value) => sum + value, 0);
  return exponentials.map((value) => value / total);
}

const sigmoid = (value: number) => 1 / (1 + Math.exp(-value));

/** The score: as `activateScores` computes it. */
export function scoreOfOutputs(outputs: ArrayLike<number>, recipe: ReadingRecipe): number {
  if (recipe.activation === 'softmax') return softmax(outputs)[recipe.positiveIndex]!;
  return recipe.activation === 'sigmoid' ? sigmoid(outputs[0]!) : outputs[0]!;
}

/** d(score)/d(outputs): `p_k(δ_ki - p_i)` for a softmax, `s(1 - s)` for a sigmoid, 1 for the raw value. */
export function scoreGradient(outputs: ArrayLike<number>, recipe: ReadingRecipe): Float32Array {
  const gradient = new Float32Array(outputs.length);
  if (recipe.activation === 'softmax') {
    const p = softmax(outputs);
    const k = recipe.positiveIndex;
    for (let index = 0; index < outputs.length; index++) gradient[index] = p[k]! * ((index === k ? 1 : 0) - p[index]!);
  } else if (recipe.activation === 'sigmoid') {
    const s = sigmoid(outputs[0]!);
    gradient[0] = s * (1 - s);
  } else {
    gradient[0] = 1;
  }
  return gradient;
}

/**
 * `∇²score(outputs)·tangent`: for a softmax `p_k(v_k - p·v)(δ_ki - p_i) - p_k·p_i(v_i - p·v)`,
 * for a sigmoid `s(1 - s)(1 - 2s)·v`, zero for the raw value.
 */
export function scoreHessianProduct(outputs: ArrayLike<number>, tangent: ArrayLike<number>, recipe: ReadingRecipe): Float32Array {
  const product = new Float32Array(outputs.length);
  if (recipe.activation === 'softmax') {
    const p = softmax(outputs);
    const k = recipe.positiveIndex;
    let mean = 0;
    for (let index = 0; index < outputs.length; index++) mean += p[index]! * tangent[index]!;
    const centeredK = tangent[k]! - mean;
    for (let index = 0; index < outputs.length; index++) {
      product[index] = p[k]! * centeredK * ((index === k ? 1 : 0) - p[index]!) - p[k]! * p[index]! * (tangent[index]! - mean);
    }
  } else if (recipe.activation === 'sigmoid') {
    const s = sigmoid(outputs[0]!);
    product[0] = s * (1 - s) * (1 - 2 * s) * tangent[0]!;
  }
  return product;
}
