/**
 * PRMBench's step-level detection metrics per error type, as its evaluation computes them
 * (`evaluate_function` and `eval_on_hallucination_step` in
 * `mr_eval/tasks/prmtest_classified_subset400/task.py`; PRMScore as in `mr_visualize`'s tables):
 * a step is predicted valid when its score is above the threshold. Positives are valid steps:
 * TP a non-error step predicted valid, FN one predicted invalid, TN an error step predicted
 * invalid, FP one predicted valid. Step accuracies are averaged over steps (micro), `firstErrorAccuracy`
 * over samples (is the first error step predicted invalid). F1 is the positive class's, negative F1
 * the error class's, PRMScore their mean. Where PRMBench writes −1 for an undefined value, this
 * gives NaN. The `correct` samples count in their own row and not in the total, as in PRMBench.
 */
export interface PrmBenchTypeMetrics {
  samples: number;
  steps: number;
  correctStepAccuracy: number;
  wrongStepAccuracy: number;
  totalStepAccuracy: number;
  firstErrorAccuracy: number;
  precision: number;
  recall: number;
  f1: number;
  negativePrecision: number;
  negativeRecall: number;
  negativeF1: number;
  prmScore: number;
  counts: { truePositive: number; falsePositive: number; trueNegative: number; falseNegative: number; firstErrorHits: number; firstErrorSamples: number };
}

export interface PrmBenchMetrics {
  /** Over every error type (the `correct` samples excluded, as PRMBench's total does). */
  total: PrmBenchTypeMetrics;
  byType: Record<string, PrmBenchTypeMetrics>;
}

type Counts = PrmBenchTypeMetrics['counts'] & { samples: number };

const ratio = (numerator: number, denominator: number) => (denominator === 0 ? Number.NaN : numerator / denominator);
const f1Of = (precision: number, recall: number) =>
  Number.isNaN(precision) || Number.isNaN(recall) || precision + recall === 0 ? Number.NaN : (2 * precision * recall) / (precision + recall);

function metricsOf(counts: Counts): PrmBenchTypeMetrics {
  const { truePositive: tp, falsePositive: fp, trueNegative: tn, falseNegative: fn } = counts;
  const precision = ratio(tp, tp + fp);
  const recall = ratio(tp, tp + fn);
  const negativePrecision = ratio(tn, tn + fn);
  const negativeRecall = ratio(tn, tn + fp);
  const f1 = f1Of(precision, recall);
  const negativeF1 = f1Of(negativePrecision, negativeRecall);
  return {
    samples: counts.samples,
    steps: tp + fp + tn + fn,
    correctStepAccuracy: ratio(tp, tp + fn),
    wrongStepAccuracy: ratio(tn, tn + fp),
    totalStepAccuracy: ratio(tp + tn, tp + fp + tn + fn),
    firstErrorAccuracy: ratio(counts.firstErrorHits, counts.firstErrorSamples),
    precision,
    recall,
    f1,
    negativePrecision,
    negativeRecall,
    negativeF1,
    prmScore: 0.5 * f1 + 0.5 * negativeF1,
    counts: {
      truePositive: tp,
      falsePositive: fp,
      trueNegative: tn,
      falseNegative: fn,
      firstErrorHits: counts.firstErrorHits,
      firstErrorSamples: counts.firstErrorSamples,
    },
  };
}

const emptyCounts = (): Counts => ({
  samples: 0,
  truePositive: 0,
  falsePositive: 0,
  trueNegative: 0,
  falseNegative: 0,
  firstErrorHits: 0,
  firstErrorSamples: 0,
});

/** Accumulates PRMBench's metrics one scored sample at a time. */
export class PrmBenchTally {
  private readonly byType = new Map<string, Counts>();
  private readonly total = emptyCounts();

  constructor(private readonly threshold: number) {}

  add(classification: string, errorSteps: readonly number[], stepScores: ArrayLike<number>): void {
    const errors = new Set(errorSteps);
    const first = errorSteps.length > 0 ? Math.min(...errorSteps) : -1;
    const counts = this.byType.get(classification) ?? emptyCounts();
    this.byType.set(classification, counts);
    const targets = classification === 'correct' ? [counts] : [counts, this.total];
    for (const target of targets) target.samples++;
    for (let step = 0; step < stepScores.length; step++) {
      const valid = stepScores[step]! > this.threshold;
      const key = errors.has(step) ? (valid ? 'falsePositive' : 'trueNegative') : valid ? 'truePositive' : 'falseNegative';
      for (const target of targets) target[key]++;
      if (step === first) {
        for (const target of targets) {
          target.firstErrorSamples++;
          if (!valid) target.firstErrorHits++;
        }
      }
    }
  }

  metrics(): PrmBenchMetrics {
    const byType: Record<string, PrmBenchTypeMetrics> = {};
    for (const [classification, counts] of [...this.byType.entries()].sort(([a], [b]) => a.localeCompare(b))) byType[classification] = metricsOf(counts);
    return { total: metricsOf(this.total), byType };
  }
}
