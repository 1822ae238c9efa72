import type { ReadingRecipe } from '@reward-lens/core';

/** One step's binary cross-entropy, its gradient in the head's outputs, and the predicted probability. */
export interface StepLoss {
  loss: number;
  gradient: Float32Array;
  /** P(step correct) as the recipe reads it (a raw value head's output goes through a sigmoid). */
  probability: number;
}

function logSumExp(values: ArrayLike<number>, skip = -1): number {
  let maximum = -Infinity;
  for (let index = 0; index < values.length; index++) if (index !== skip) maximum = Math.max(maximum, values[index]!);
  let total = 0;
  for (let index = 0; index < values.length; index++) if (index !== skip) total += Math.exp(values[index]! - maximum);
  return maximum + Math.log(total);
}

/** `log(1 + e^x)` without overflow. */
const softplus = (x: number) => (x > 0 ? x + Math.log1p(Math.exp(-x)) : Math.log1p(Math.exp(x)));

/**
 * `-(y·log p + (1 - y)·log(1 - p))` for a target `y` in [0, 1], computed from the logits (never
 * from a rounded probability): with a softmax recipe `p` is the positive class's probability
 * over the read columns; with a sigmoid or raw recipe the single output is the logit.
 */
export function stepCrossEntropy(outputs: ArrayLike<number>, target: number, recipe: ReadingRecipe): StepLoss {
  const width = outputs.length;
  const gradient = new Float32Array(width);
  if (recipe.activation !== 'softmax') {
    const logit = outputs[0]!;
    const probability = 1 / (1 + Math.exp(-logit));
    gradient[0] = probability - target;
    return { loss: softplus(logit) - target * logit, gradient, probability };
  }
  const k = recipe.positiveIndex;
  const all = logSumExp(outputs);
  const others = logSumExp(outputs, k);
  const logP = outputs[k]! - all;
  const logNotP = others - all;
  for (let index = 0; index < width; index++) {
    const p = Math.exp(outputs[index]! - all);
    const q = index === k ? 0 : Math.exp(outputs[index]! - others);
    gradient[index] = target * (p - (index === k ? 1 : 0)) + (1 - target) * (p - q);
  }
  return { loss: -(target * logP + (1 - target) * logNotP), gradient, probability: Math.exp(logP) };
}
