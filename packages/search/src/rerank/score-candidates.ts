import { aggregate, type Aggregator, type ProcessRM } from '@reward-lens/core';
import { defaultAnswerChecker, type AnswerChecker } from '../answers/answer-checker.js';
import type { ScoredCandidate } from './scored-candidate.js';

/** A candidate solution: one text (split at the PRM's delimiter) or its steps. */
export type CandidateSolution = string | readonly string[];

export interface ScoreCandidatesOptions {
  /** How step scores become one score: a name (`min`, `prod`, `mean`, `last`, or one registered with `registerAggregator`) or a function. Default `min`. */
  aggregate?: string | Aggregator;
  checker?: AnswerChecker;
}

export interface ScoredCandidates {
  candidates: ScoredCandidate[];
  /** The PRM's notes (which backend ran, truncation), and what this step added. */
  notes: string[];
}

/** The aggregate over the steps that have a score (left truncation leaves NaN for the steps it cut). */
export function aggregateScored(stepScores: readonly number[], how: string | Aggregator): number | null {
  const scored = stepScores.filter((score) => Number.isFinite(score));
  return scored.length === 0 ? null : aggregate(scored, how);
}

/**
 * Scores every candidate of one problem with the PRM (batched; a candidate that cannot be scored
 * gets an error and no score, the others go on) and extracts each final answer.
 *
 * @example
 * const { candidates } = await scoreCandidates(prm, problem, [solutionA, solutionB]);
 * weightedVote(candidates).answer;
 */
export async function scoreCandidates(
  prm: ProcessRM,
  problem: string,
  solutions: readonly CandidateSolution[],
  options: ScoreCandidatesOptions = {},
): Promise<ScoredCandidates> {
  const how = options.aggregate ?? 'min';
  const checker = options.checker ?? defaultAnswerChecker;
  const inputs = solutions.map((solution) => (typeof solution === 'string' ? { problem, solution } : { problem, steps: [...solution] }));
  const evidence = await prm.stepScores(inputs, { onInvalid: 'report' });
  const candidates = solutions.map((solution, index): ScoredCandidate => {
    const text = typeof solution === 'string' ? solution : solution.join('\n');
    const extracted = checker.extract(text);
    const answer = extracted?.text ?? null;
    const error = evidence.value.errors[index];
    const stepScores = error ? [] : Array.from(evidence.value.curves[index]!);
    return {
      index,
      stepScores,
      score: error ? null : aggregateScored(stepScores, how),
      answer,
      answerMethod: extracted?.method ?? null,
      normalized: answer === null ? null : checker.normalize(answer, { problem }),
      ...(error ? { error: { code: error.code, message: error.message } } : {}),
    };
  });
  return { candidates, notes: evidence.notes };
}
