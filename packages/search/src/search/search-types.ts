import type { Aggregator } from '@reward-lens/core';
import type { AnswerChecker } from '../answers/answer-checker.js';
import type { AnswerVote } from '../rerank/votes.js';
import type { BackendMeter } from './meter-backend.js';

export type SearchStrategy = 'beam' | 'dvts' | 'best-of-n';

/**
 * Why a solution ended: it stated an `answer`, the policy ended it (`eos`, or `length` at its
 * token limit or the PRM's positions), or the step budget ran out (`budget`).
 */
export type SolutionEnd = 'answer' | 'eos' | 'length' | 'budget';

export interface SearchSolution {
  steps: string[];
  stepScores: number[];
  /** The step scores aggregated by `pickBy`. */
  score: number;
  answer: string | null;
  normalized: string | null;
  end: SolutionEnd;
}

/** What a search spent. */
export interface SearchCounts {
  /** Tokens the policy generated, for every proposal (kept or pruned). */
  generatedTokens: number;
  /**
   * Tokens run through the PRM: exactly, with a `meter`; without one, the tokens each new prefix
   * ran from its parent's cache (`ScoredPrefix.tokensRun`, incremental) or the whole sequences
   * (full), what a local backend runs, and `scoredTokensExact` is false.
   */
  scoredTokens: number;
  scoredTokensExact: boolean;
  /** Steps the policy proposed. */
  proposals: number;
  /** Steps the PRM scored (duplicates and empty proposals are not). */
  scoredSteps: number;
  policyCalls: number;
  scoringCalls: number;
  iterations: number;
  /** Wall time inside the PRM and inside the policy. */
  scoringMs: number;
  generationMs: number;
}

export interface SearchResult {
  strategy: SearchStrategy;
  /** Index into `solutions` of the chosen one; null when there is none. */
  pick: number | null;
  solutions: SearchSolution[];
  /** Per normalised answer, the summed `pickBy` scores of the solutions (winner first). */
  votes: AnswerVote[];
  counts: SearchCounts;
  notes: string[];
}

export interface SearchOptions {
  /** Candidates: steps generated per iteration (beam, DVTS) or solutions (best-of-N). */
  n: number;
  /** Beam width b: each kept prefix is extended by b steps; beam search keeps n/b prefixes, DVTS grows n/b subtrees. Default 4. */
  beamWidth?: number;
  /** Step budget. Default 16. */
  maxSteps?: number;
  /** Ranks partial solutions while searching. Default `last` (the newest step's score, as search-and-learn ranks beams). */
  rankBy?: string | Aggregator;
  /** Scores finished solutions for the final choice. Default `last`. */
  pickBy?: string | Aggregator;
  /** `best`: the highest `pickBy` score (default); `weighted-vote`: the best solution of the answer with the largest summed score. */
  select?: 'best' | 'weighted-vote';
  checker?: AnswerChecker;
  /** Seeds every policy call. Default 0. */
  seed?: number;
  /**
   * `incremental` (default): new steps are scored on the cached prefixes (`ScoredPrefix.extendAll`).
   * `full`: every candidate prefix is re-scored from the start, as Python search libraries do;
   * the same picks, for comparison and benchmarks.
   */
  scoring?: 'incremental' | 'full';
  /** The PRM's backend wrapped by `meterBackend`: scored tokens are then counted exactly. */
  meter?: BackendMeter;
  signal?: AbortSignal;
}

export function emptyCounts(exact = false): SearchCounts {
  return {
    generatedTokens: 0,
    scoredTokens: 0,
    scoredTokensExact: exact,
    proposals: 0,
    scoredSteps: 0,
    policyCalls: 0,
    scoringCalls: 0,
    iterations: 0,
    scoringMs: 0,
    generationMs: 0,
  };
}
