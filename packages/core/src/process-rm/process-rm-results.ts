import type { RewardLensError } from '@reward-lens/spec';
import type { PairMeta, TokenizedStep } from './tokenize-pair.js';

/** Per input, the error that kept it from being scored (with `onInvalid: 'report'`), or null. */
export type PairErrors = (RewardLensError | null)[];

/** One outcome scalar per pair: the reward at the last step's read position. */
export interface OutcomeScores {
  /** NaN for an input that was not scored. */
  values: Float32Array;
  errors: PairErrors;
}

/** Per pair, the score at every step boundary. `curves[i][stepCounts[i] - 1]` is pair i's outcome. */
export interface StepScores {
  stepCounts: number[];
  curves: Float32Array[];
  steps: TokenizedStep[][];
  meta: PairMeta[];
  errors: PairErrors;
}

/** Per pair, the reward read at every token position of the sequence (problem included). */
export interface PrefixScores {
  curves: Float32Array[];
  /** Per pair, the positions at which its steps are read (indices into its curve). */
  stepReadPositions: number[][];
  meta: PairMeta[];
  errors: PairErrors;
}

/** Per pair, the hidden state of one layer at every step's read position (`nSteps * hiddenSize`). */
export interface StepActivations {
  layer: number;
  hiddenSize: number;
  values: Float32Array[];
  meta: PairMeta[];
  errors: PairErrors;
}
