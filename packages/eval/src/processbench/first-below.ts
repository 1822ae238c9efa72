/**
 * ProcessBench's prediction for a PRM: the index of the first step whose score is below the
 * threshold, or −1 when none is. An unscored step (NaN) is never below.
 */
export function firstBelow(stepScores: ArrayLike<number>, threshold: number): number {
  for (let index = 0; index < stepScores.length; index++) if (stepScores[index]! < threshold) return index;
  return -1;
}
