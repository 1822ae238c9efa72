import { wilsonInterval } from '../metrics/wilson-interval.js';

/** A matched pair: the same solution with and without one flawed step, scored at that step. */
export interface MatchedPair {
  /** The flawed step's score. */
  flawed: number;
  /** The same step's score in the clean solution. */
  clean: number;
}

export interface VerificationIndex {
  /** Fraction of pairs where the flawed step scores strictly lower. */
  index: number;
  lower: number;
  ties: number;
  pairs: number;
  /** 95% Wilson score interval of the index. */
  interval: { low: number; high: number };
}

/**
 * Does a scorer reward correct steps, or merely correct-looking ones? On matched pairs, the
 * fraction where the flawed step scores lower than its clean twin (ties count as not lower), with a
 * Wilson interval. Pairs with an unscored (NaN) side are left out.
 */
export function verificationIndex(pairs: Iterable<MatchedPair>): VerificationIndex {
  let lower = 0;
  let ties = 0;
  let count = 0;
  for (const pair of pairs) {
    if (Number.isNaN(pair.flawed) || Number.isNaN(pair.clean)) continue;
    count++;
    if (pair.flawed < pair.clean) lower++;
    else if (pair.flawed === pair.clean) ties++;
  }
  return { index: count === 0 ? Number.NaN : lower / count, lower, ties, pairs: count, interval: wilsonInterval(lower, count) };
}
