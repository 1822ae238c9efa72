/**
 * ProcessBench's metric, as its evaluation code computes it (QwenLM/ProcessBench,
 * `code/run_eval.py` and `code/run_eval_prm_rlhflow.py`): items are split by label into erroneous
 * (label ≠ −1) and correct (label = −1); `errorAccuracy` is the fraction of erroneous items whose
 * prediction equals the label, `correctAccuracy` the fraction of correct items predicted −1, and F1
 * is their harmonic mean, `2 · a · b / (a + b)`.
 */
export interface ProcessBenchMetrics {
  errorAccuracy: number;
  correctAccuracy: number;
  f1: number;
  erroneousItems: number;
  correctItems: number;
  /** Where predictions fall, for the confusion table. */
  confusion: ProcessBenchConfusion;
}

/**
 * Erroneous items: the first flagged step is the labelled one (`exact`), earlier (`early`: a correct
 * step flagged), later (`late`), or none (`missed`). Correct items: none flagged (`clean`) or some
 * step flagged (`falseAlarm`).
 */
export interface ProcessBenchConfusion {
  erroneous: { exact: number; early: number; late: number; missed: number };
  correct: { clean: number; falseAlarm: number };
}

/** Harmonic mean; ProcessBench's formula gives NaN (0/0) when both are 0, where the harmonic mean's limit, 0, is given. */
export function harmonicMean(a: number, b: number): number {
  if (Number.isNaN(a) || Number.isNaN(b)) return Number.NaN;
  return a + b === 0 ? 0 : (2 * a * b) / (a + b);
}

/** Accumulates ProcessBench's metric one item at a time, in constant memory. */
export class ProcessBenchTally {
  private readonly confusion: ProcessBenchConfusion = { erroneous: { exact: 0, early: 0, late: 0, missed: 0 }, correct: { clean: 0, falseAlarm: 0 } };

  add(label: number, prediction: number): void {
    if (label === -1) {
      if (prediction === -1) this.confusion.correct.clean++;
      else this.confusion.correct.falseAlarm++;
    } else if (prediction === label) this.confusion.erroneous.exact++;
    else if (prediction === -1) this.confusion.erroneous.missed++;
    else if (prediction < label) this.confusion.erroneous.early++;
    else this.confusion.erroneous.late++;
  }

  /** Accuracy on an empty side is NaN (as numpy's mean of nothing), and so is F1. */
  metrics(): ProcessBenchMetrics {
    const { erroneous, correct } = this.confusion;
    const erroneousItems = erroneous.exact + erroneous.early + erroneous.late + erroneous.missed;
    const correctItems = correct.clean + correct.falseAlarm;
    const errorAccuracy = erroneousItems === 0 ? Number.NaN : erroneous.exact / erroneousItems;
    const correctAccuracy = correctItems === 0 ? Number.NaN : correct.clean / correctItems;
    return {
      errorAccuracy,
      correctAccuracy,
      f1: harmonicMean(errorAccuracy, correctAccuracy),
      erroneousItems,
      correctItems,
      confusion: structuredClone(this.confusion),
    };
  }
}
