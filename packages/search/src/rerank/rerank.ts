import type { ProcessRM } from '@reward-lens/core';
import type { ScoredCandidate } from './scored-candidate.js';
import { scoreCandidates, type CandidateSolution, type ScoreCandidatesOptions } from './score-candidates.js';
import { bestOfN, majorityVote, weightedVote, type AnswerVote } from './votes.js';

export type RerankMethod = 'best-of-n' | 'weighted-vote' | 'majority-vote';

export interface RerankOptions extends ScoreCandidatesOptions {
  /** Default `weighted-vote`. */
  method?: RerankMethod;
}

export interface RerankResult {
  method: RerankMethod;
  /** The chosen candidate's index; null when none could be chosen. */
  pick: number | null;
  /** The chosen candidate's aggregated score. */
  score: number | null;
  /** The chosen normalised answer. */
  answer: string | null;
  candidates: ScoredCandidate[];
  /** Per normalised answer, the summed aggregated score (weighted), winner first. */
  votes: AnswerVote[];
  /** The three methods' picks side by side. */
  picks: Record<RerankMethod, number | null>;
  notes: string[];
}

/**
 * Scores N candidate solutions of one problem and chooses one: best-of-N (highest aggregated
 * score), weighted majority vote (largest summed score per normalised answer) or plain majority
 * vote. A vote with no answer to count falls back to best-of-N, and the notes say so.
 *
 * @example
 * const result = await rerank(prm, problem, candidates, { method: 'weighted-vote', aggregate: 'min' });
 * result.pick; result.votes[0]; // { normalized: '72', total: 2.41, count: 3, ... }
 */
export async function rerank(prm: ProcessRM, problem: string, solutions: readonly CandidateSolution[], options: RerankOptions = {}): Promise<RerankResult> {
  const method = options.method ?? 'weighted-vote';
  const { candidates, notes } = await scoreCandidates(prm, problem, solutions, options);
  const weighted = weightedVote(candidates);
  const majority = majorityVote(candidates);
  const best = bestOfN(candidates);
  const picks: Record<RerankMethod, number | null> = { 'best-of-n': best, 'weighted-vote': weighted.pick, 'majority-vote': majority.pick };
  let pick = picks[method];
  if (pick === null && method !== 'best-of-n' && best !== null) {
    notes.push(`${method}: no candidate states an answer; fell back to best-of-n`);
    pick = best;
  }
  const chosen = pick === null ? undefined : candidates[pick];
  return {
    method,
    pick,
    score: chosen?.score ?? null,
    answer: chosen?.normalized ?? null,
    candidates,
    votes: weighted.votes,
    picks,
    notes,
  };
}
