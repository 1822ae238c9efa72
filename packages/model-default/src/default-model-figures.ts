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
  /** The matched pairs of each injected error kind. */
  matchedPairsByKind?: Record<string, MatchedPairsFigures>;
  processBenchGsm8k: ProcessBenchFigures;
}
