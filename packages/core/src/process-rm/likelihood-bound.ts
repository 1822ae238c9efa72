import type { TokenizedPair } from './tokenize-pair.js';

/**
 * Where a language-model head is read to give the probability of each token of the solution:
 * the position before each one (its logits predict it), from the solution's first token to the
 * pair's last. Empty when the solution starts the sequence (nothing predicts its first token).
 */
export function likelihoodPositions(pair: TokenizedPair): number[] {
  const start = Math.max(1, pair.steps[0]?.tokenSpan[0] ?? pair.inputIds.length);
  return Array.from({ length: Math.max(0, pair.inputIds.length - start) }, (_, index) => start - 1 + index);
}

/** The softmax probability of `token` in one row of logits (`width` values from `offset`), in float64. */
function probabilityOf(logits: Float32Array, offset: number, width: number, token: number): number {
  let max = -Infinity;
  for (let column = 0; column < width; column++) max = Math.max(max, logits[offset + column]!);
  let total = 0;
  for (let column = 0; column < width; column++) total += Math.exp(logits[offset + column]! - max);
  return Math.exp(logits[offset + token]! - max) / total;
}

/**
 * The probability the head gave each solution token, from its `logits` at `likelihoodPositions(pair)`
 * (`width` each): a log-softmax per token in float64, stored as float32 (rounding is monotone, so
 * the bound below gives the same float32 scores as from the float64 values). Small beside the
 * logits: scoring computes it per batch, while the next batch's pass runs.
 */
export function tokenProbabilities(pair: TokenizedPair, logits: Float32Array, width: number): Float32Array {
  const before = likelihoodPositions(pair);
  const probabilities = new Float32Array(before.length);
  before.forEach((position, index) => {
    probabilities[index] = probabilityOf(logits, index * width, width, pair.inputIds[position + 1]!);
  });
  return probabilities;
}

/**
 * Bounds scores read at `positions` by the likelihood of the solution so far: each score becomes
 * the least of itself and the probability the head gave every solution token up to its position
 * (`probabilities`: `tokenProbabilities(pair, ...)`).
 */
export function boundByProbabilities(scores: Float32Array, positions: readonly number[], pair: TokenizedPair, probabilities: Float32Array): Float32Array {
  const before = likelihoodPositions(pair);
  // running[k]: the least probability of the tokens at before[0] + 1 ... before[k] + 1.
  const running = new Float32Array(before.length);
  let least = 1;
  for (let index = 0; index < before.length; index++) {
    least = Math.min(least, probabilities[index]!);
    running[index] = least;
  }
  const first = before[0] ?? Number.POSITIVE_INFINITY;
  return scores.map((score, index) => {
    const position = positions[index]!;
    // The token at `position` is predicted from `position - 1`: entry `position - 1 - first`.
    const entry = Math.min(position - 1 - first, running.length - 1);
    return entry < 0 || Number.isNaN(score) ? score : Math.min(score, running[entry]!);
  });
}

/** What a prefix's checkpoint keeps for the bound: the least probability of the solution's tokens before it, and the logits that predict the token at its end. */
export interface LikelihoodState {
  floor: number;
  next: Float32Array | undefined;
}

/**
 * The bound over tokens `start..ids.length` run from a checkpoint at `start` (`state`, absent
 * at 0): `floors[i]` is the least probability of the solution's tokens up to `start + i`, from
 * the likelihood head's `logits` at the run's positions (`width` each); `stateAt(length)` is what
 * a checkpoint at `length` (within the run) keeps.
 */
export function extendLikelihood(
  ids: readonly number[],
  solutionStart: number,
  start: number,
  logits: Float32Array,
  width: number,
  state: LikelihoodState | undefined,
): { floors: Float64Array; stateAt(length: number): LikelihoodState } {
  const floors = new Float64Array(ids.length - start);
  let floor = state?.floor ?? 1;
  for (let position = start; position < ids.length; position++) {
    if (position >= Math.max(1, solutionStart)) {
      const before = position - 1;
      const probability =
        before < start
          ? state?.next === undefined
            ? 1
            : probabilityOf(state.next, 0, width, ids[position]!)
          : probabilityOf(logits, (before - start) * width, width, ids[position]!);
      floor = Math.min(floor, probability);
    }
    floors[position - start] = floor;
  }
  return {
    floors,
    stateAt: (length) => ({
      floor: length > start ? floors[length - 1 - start]! : (state?.floor ?? 1),
      next: length > start ? logits.slice((length - 1 - start) * width, (length - start) * width) : state?.next,
    }),
  };
}
