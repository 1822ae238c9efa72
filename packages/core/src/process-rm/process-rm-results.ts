import type { PairMeta, TokenizedStep } from './tokenize-pair.js';

/** One outcome scalar per pair: the reward at the last step's read position. */
export interface OutcomeScores {
  values: Float32Array;
}

/** Per pair, the score at every step boundary. `curves[i][stepCounts[i] - 1]` is pair i's outcome. */
export interface StepScores {
  stepCounts: number[];
  curves: Float32Array[];
  steps: TokenizedStep[][];
  meta: PairMeta[];
}

/** Per pair, the reward read at every token position of the sequence (problem included). */
export interface PrefixScores {
  curves: Float32Array[];
  /** Per pair, the positions at which its steps are read (indices into its curve). */
  stepReadPositions: number[][];
  meta: PairMeta[];
}

/** Per pair, the hidden state of one layer at every step's read position (`nSteps * hiddenSize`). */
export interface StepActivations {
  layer: number;
  hiddenSize: number;
  values: Float32Array[];
  meta: PairMeta[];
}
