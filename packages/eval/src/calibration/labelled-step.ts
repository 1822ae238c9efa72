/** A step score with its label: 1 when the step is correct (its prefix is clean), 0 when it is the first error. */
export interface LabelledStep {
  score: number;
  label: 0 | 1;
}

/**
 * The labelled steps of scored ProcessBench items, as a calibration is fitted on them: every step
 * before the first error is correct (1), the first error is 0, and the steps after it carry no
 * label (a step after an error is neither). Steps without a score (NaN: cut by truncation) are left out.
 */
export function labelledStepsOf(items: Iterable<{ label: number; stepScores: ArrayLike<number> }>): LabelledStep[] {
  const steps: LabelledStep[] = [];
  for (const item of items) {
    const last = item.label === -1 ? item.stepScores.length - 1 : item.label;
    for (let step = 0; step <= last; step++) {
      const score = item.stepScores[step]!;
      if (!Number.isNaN(score)) steps.push({ score, label: step === item.label ? 0 : 1 });
    }
  }
  return steps;
}
