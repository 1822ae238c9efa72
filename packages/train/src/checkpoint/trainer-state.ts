import type { HeldOutMetrics } from '../evaluation/evaluate-held-out.js';

/** Held-out metrics at one step. */
export interface EvaluationRecord extends HeldOutMetrics {
  step: number;
}

/** Everything beyond the weights and the optimizer moments that a resumed run needs, and the run's history. */
export interface TrainerState {
  formatVersion: 1;
  /** Optimizer steps completed. */
  step: number;
  totalSteps: number;
  /** Position in the training order of the next record to read. */
  cursor: number;
  /** The run's seed and the shuffle generator's state for the epoch the cursor is in (recomputed from the seed; kept to check). */
  random: { seed: number; epoch?: number; shuffleState?: number };
  tokensSeen: number;
  recordsSkipped: number;
  /** Seconds of training so far, over every session of the run. */
  trainingSeconds: number;
  /** The hyperparameters; a resumed run must be given the same ones. */
  hyperparameters: Record<string, unknown>;
  data: { training: string; heldOut: string | null };
  losses: { step: number; loss: number; languageModelLoss?: number; learningRate: number; gradientNorm: number }[];
  evaluations: EvaluationRecord[];
  notes: string[];
  /**
   * What the run was given, as digests (`sha256:<hex>`): the training data (its first records in
   * training order), the tokenizer and the reading recipe. A resume given other ones is refused,
   * naming what changed. Absent in checkpoints written before they were recorded.
   */
  fingerprints?: Record<string, string>;
  /** The sha256 of each file of the checkpoint, written with it and checked when it is read. */
  checksums?: Record<string, string>;
}
