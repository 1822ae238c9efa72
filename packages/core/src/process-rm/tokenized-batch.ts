import type { RewardLensError } from '@reward-lens/spec';
import type { TokenizedPair } from './tokenize-pair.js';

/** Per-call options of the scoring methods. */
export interface ScoringOptions {
  /**
   * `'throw'` (default): one input that cannot be scored (malformed, empty, longer than the model)
   * throws for the whole call. `'report'`: it gets an entry in `value.errors`, no scores (NaN, empty
   * curves), and the other inputs are scored.
   */
  onInvalid?: 'throw' | 'report';
  /**
   * Stops the call: checked before the inputs are laid out and before each forward pass (a pass
   * already running finishes; a remote engine's requests in flight are aborted), and the call
   * rejects with the signal's reason (an `AbortError` `DOMException` unless the caller gave one).
   */
  signal?: AbortSignal;
}

export interface TokenizedBatch {
  pairs: TokenizedPair[];
  /** Per input: the error that kept it from being scored, or null. */
  errors: (RewardLensError | null)[];
}

/** The placeholder of an input that could not be scored: no tokens, no steps, the error in its notes. */
export function unscoredPair(error: RewardLensError): TokenizedPair {
  const notes = [`not scored: ${error.code}: ${error.message}`];
  return {
    text: '',
    inputIds: new Int32Array(0),
    offsets: [],
    steps: [],
    readPositions: [],
    meta: { nSteps: 0, stepMethod: 'none', droppedEmptySteps: 0, tokenCount: 0, truncatedTokens: 0, notes },
    notes,
  };
}
