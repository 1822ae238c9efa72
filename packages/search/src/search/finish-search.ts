import { aggregate, type Aggregator } from '@reward-lens/core';
import type { AnswerChecker } from '../answers/answer-checker.js';
import type { ScoredCandidate } from '../rerank/scored-candidate.js';
import { weightedVote } from '../rerank/votes.js';
import type { SearchNode } from './prefix-scorer.js';
import type { SearchCounts, SearchResult, SearchSolution, SearchStrategy, SolutionEnd } from './search-types.js';

export function toSolution(problem: string, node: SearchNode, end: SolutionEnd, pickBy: string | Aggregator, checker: AnswerChecker): SearchSolution {
  const extracted = checker.extract(node.steps.join('\n'));
  const answer = extracted?.text ?? null;
  const scored = node.stepScores.filter((score) => Number.isFinite(score));
  return {
    steps: [...node.steps],
    stepScores: [...node.stepScores],
    score: scored.length > 0 ? aggregate(scored, pickBy) : Number.NaN,
    answer,
    normalized: answer === null ? null : checker.normalize(answer, { problem }),
    end,
  };
}

/** The rank of a partial solution: its step scores aggregated (`last` by default). */
export function rankScore(node: SearchNode, rankBy: string | Aggregator): number {
  const scored = node.stepScores.filter((score) => Number.isFinite(score));
  return scored.length > 0 ? aggregate(scored, rankBy) : Number.NEGATIVE_INFINITY;
}

/** Finished solutions as the votes take candidates (a solution with no finite score does not vote). */
export function solutionCandidates(solutions: readonly SearchSolution[]): ScoredCandidate[] {
  return solutions.map((solution, index) => ({
    index,
    stepScores: solution.stepScores,
    score: Number.isFinite(solution.score) ? solution.score : null,
    answer: solution.answer,
    answerMethod: null,
    normalized: solution.normalized,
  }));
}

/** The choice among finished solutions: the best score (the earliest on a tie), or the best of the weighted vote's winner. */
export function finishSearch(
  strategy: SearchStrategy,
  solutions: SearchSolution[],
  select: 'best' | 'weighted-vote',
  counts: SearchCounts,
  notes: string[],
): SearchResult {
  const vote = weightedVote(solutionCandidates(solutions));
  let pick: number | null = null;
  if (select === 'weighted-vote' && vote.pick !== null) pick = vote.pick;
  else {
    if (select === 'weighted-vote' && solutions.length > 0) notes.push('weighted-vote: no solution states an answer; chose the best score');
    solutions.forEach((solution, index) => {
      if (Number.isFinite(solution.score) && (pick === null || solution.score > solutions[pick]!.score)) pick = index;
    });
  }
  return { strategy, pick, solutions, votes: vote.votes, counts, notes };
}
