/** Reduces one solution's step scores (in step order, at least one) to one solution score. */
export type Aggregator = (stepScores: ArrayLike<number>) => number;

function sum(values: ArrayLike<number>): number {
  let total = 0;
  for (let index = 0; index < values.length; index++) total += values[index]!;
  return total;
}

/** The built-ins. `prod` assumes probabilities; `min` is the weakest-step rule of Lightman et al. */
export const builtInAggregators = {
  min: (stepScores) => {
    let lowest = Infinity;
    for (let index = 0; index < stepScores.length; index++) lowest = Math.min(lowest, stepScores[index]!);
    return lowest;
  },
  prod: (stepScores) => {
    let product = 1;
    for (let index = 0; index < stepScores.length; index++) product *= stepScores[index]!;
    return product;
  },
  mean: (stepScores) => sum(stepScores) / stepScores.length,
  last: (stepScores) => stepScores[stepScores.length - 1]!,
} satisfies Record<string, Aggregator>;

export type BuiltInAggregatorName = keyof typeof builtInAggregators;
