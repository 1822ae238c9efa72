import type { ScoredCandidate } from './scored-candidate.js';

/** All candidates that gave one normalised answer. */
export interface AnswerVote {
  normalized: string;
  /** Summed weight: aggregated scores for a weighted vote, candidate counts for a majority vote. */
  total: number;
  count: number;
  /** The highest single score among them (null for a majority vote without scores). */
  best: number | null;
  /** Candidate indices, ascending. */
  candidates: number[];
}

export interface VoteResult {
  /** The chosen candidate's index; null when no candidate states an answer. */
  pick: number | null;
  /** The winning normalised answer. */
  answer: string | null;
  /** Every answer's vote, winner first. */
  votes: AnswerVote[];
}

/** Sums in ascending order, so that the total does not depend on the candidates' order (float addition is not associative). */
function orderIndependentSum(values: number[]): number {
  return [...values].sort((a, b) => a - b).reduce((sum, value) => sum + value, 0);
}

function compareKeys(left: string, right: string): number {
  return left < right ? -1 : left > right ? 1 : 0;
}

function tally(candidates: readonly ScoredCandidate[], weighted: boolean): AnswerVote[] {
  const groups = new Map<string, ScoredCandidate[]>();
  for (const candidate of candidates) {
    if (candidate.normalized === null) continue;
    if (weighted && candidate.score === null) continue;
    const group = groups.get(candidate.normalized) ?? [];
    group.push(candidate);
    groups.set(candidate.normalized, group);
  }
  const votes = [...groups].map(([normalized, group]): AnswerVote => {
    const scores = group.flatMap((candidate) => (candidate.score === null ? [] : [candidate.score]));
    return {
      normalized,
      total: weighted ? orderIndependentSum(scores) : group.length,
      count: group.length,
      best: scores.length > 0 ? Math.max(...scores) : null,
      candidates: group.map((candidate) => candidate.index).sort((a, b) => a - b),
    };
  });
  // Ties: the larger total, then more candidates, then the higher best score, then the smaller key
  // (code-unit order). Nothing depends on the order the candidates came in.
  return votes.sort(
    (left, right) =>
      right.total - left.total ||
      right.count - left.count ||
      (right.best ?? -Infinity) - (left.best ?? -Infinity) ||
      compareKeys(left.normalized, right.normalized),
  );
}

function pickWithin(vote: AnswerVote | undefined, candidates: readonly ScoredCandidate[], byScore: boolean): number | null {
  if (!vote) return null;
  if (!byScore) return vote.candidates[0]!;
  const byIndex = new Map(candidates.map((candidate) => [candidate.index, candidate]));
  let best = vote.candidates[0]!;
  for (const index of vote.candidates) if ((byIndex.get(index)!.score ?? -Infinity) > (byIndex.get(best)!.score ?? -Infinity)) best = index;
  return best;
}

/**
 * Weighted majority vote (as in Uesato et al. and search-and-learn's `find_answer_with_largest_sum`):
 * each candidate adds its aggregated score to its normalised answer; the answer with the largest
 * sum wins, and the pick is its highest-scoring candidate (the lowest index on a tie). Ties between
 * answers go to more candidates, then the higher single score, then the smaller key: unlike
 * search-and-learn (first answer seen), the result does not depend on the candidates' order.
 * Candidates without an answer or a score do not vote. Scores should be non-negative (probabilities);
 * raw value-head scores are summed as they are.
 */
export function weightedVote(candidates: readonly ScoredCandidate[]): VoteResult {
  const votes = tally(candidates, true);
  return { pick: pickWithin(votes[0], candidates, true), answer: votes[0]?.normalized ?? null, votes };
}

/** Plain majority vote (self-consistency): the most frequent normalised answer wins; the pick is its first candidate. Ties as in `weightedVote`, without scores. */
export function majorityVote(candidates: readonly ScoredCandidate[]): VoteResult {
  const votes = tally(
    candidates.map((candidate) => ({ ...candidate, score: null })),
    false,
  );
  return { pick: pickWithin(votes[0], candidates, false), answer: votes[0]?.normalized ?? null, votes };
}

/** The highest aggregated score (the lowest index on a tie); null when no candidate was scored. */
export function bestOfN(candidates: readonly ScoredCandidate[]): number | null {
  let best: ScoredCandidate | null = null;
  for (const candidate of candidates) {
    if (candidate.score === null) continue;
    if (best === null || candidate.score > best.score! || (candidate.score === best.score && candidate.index < best.index)) best = candidate;
  }
  return best?.index ?? null;
}
