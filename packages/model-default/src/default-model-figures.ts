/** ProcessBench's metric on one split. */
export interface ProcessBenchFigures {
  items: number;
  f1: number;
  errorAccuracy: number;
  correctAccuracy: number;
  auroc: number;
}

/** The verification index on matched pairs: how often the flawed step scores lower than the clean one. */
export interface MatchedPairsFigures {
  pairs: number;
  index: number;
  lower: number;
  ties: number;
  interval: { low: number; high: number };
}

/** What the retraining measured, written to `model/figures.json` and into the model card. */
export interface DefaultModelFigures {
  trainingSteps: number;
  trainingTokens: number;
  trainingSeconds: number;
  trainingRecords: number;
  /** Calibration and test solutions found in the training stream (0: none). */
  overlapWithEvaluation: number;
  heldOutLoss: number;
  threshold: { value: number; chosenOn: string };
  calibration: { method: string; eceBefore: number; eceAfter: number };
  organismTest: ProcessBenchFigures;
  matchedPairs: MatchedPairsFigures;
  /** How the figures were read: the recipe (`trl-likelihood`: the classifier bounded by the model's likelihood of the solution). */
  readingRecipe?: string;
  /** The organism test's erroneous items by injected error kind: how often the exact first error was found. */
  organismTestByKind?: Record<string, { items: number; exact: number; exactRate: number; early: number; late: number; missed: number }>;
  /** The matched pairs of each injected error kind. */
  matchedPairsByKind?: Record<string, MatchedPairsFigures>;
  processBenchGsm8k: ProcessBenchFigures;
}
