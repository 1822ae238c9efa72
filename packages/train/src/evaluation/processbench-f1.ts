/** ProcessBench's metrics over items: each a labelled first error (-1: none) and the step scores. */
export interface ProcessBenchMetrics {
  /** Harmonic mean of the two accuracies. */
  f1: number;
  /** Share of erroneous items whose prediction is their labelled first error. */
  errorAccuracy: number;
  /** Share of correct items predicted correct (-1). */
  correctAccuracy: number;
  erroneous: number;
  correct: number;
  threshold: number;
}

/** The prediction: the first step scoring below `threshold`, -1 if none. */
export function predictFirstError(scores: ArrayLike<number>, threshold: number): number {
  for (let step = 0; step < scores.length; step++) if (scores[step]! < threshold) return step;
  return -1;
}

/**
 * ProcessBench's F1 (Zheng et al., 2024): the accuracy on erroneous items (prediction equals
 * the label) and on correct items (prediction is -1), and their harmonic mean. An accuracy over
 * no items is NaN, and so is the F1 then.
 */
export function processBenchF1(items: readonly { label: number; scores: ArrayLike<number> }[], threshold: number): ProcessBenchMetrics {
  let erroneous = 0;
  let correct = 0;
  let errorHits = 0;
  let correctHits = 0;
  for (const { label, scores } of items) {
    const prediction = predictFirstError(scores, threshold);
    if (label >= 0) {
      erroneous++;
      if (prediction === label) errorHits++;
    } else {
      correct++;
      if (prediction === -1) correctHits++;
    }
  }
  const errorAccuracy = erroneous > 0 ? errorHits / erroneous : Number.NaN;
  const correctAccuracy = correct > 0 ? correctHits / correct : Number.NaN;
  const f1 =
    Number.isNaN(errorAccuracy) || Number.isNaN(correctAccuracy)
      ? Number.NaN
      : errorAccuracy + correctAccuracy > 0
        ? (2 * errorAccuracy * correctAccuracy) / (errorAccuracy + correctAccuracy)
        : 0;
  return { f1, errorAccuracy, correctAccuracy, erroneous, correct, threshold };
}
