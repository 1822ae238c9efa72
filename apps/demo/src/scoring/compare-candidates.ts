import type { ProcessRM } from '@reward-lens/core';
import { rerank, type RerankResult } from '@reward-lens/search';
import type { AggregateName } from './score-solution.js';

/** Candidates of one problem, scored and ranked the two ways the page shows. */
export interface Comparison {
  result: RerankResult;
  /** Candidate indices by aggregated score, highest first (ties: the lower index), as best-of-N ranks them; unscored ones last. */
  bestOfNOrder: number[];
  elapsedMs: number;
}

/**
 * Scores every candidate in one batch and ranks them as best-of-N (highest aggregated score) and
 * as a weighted vote (answers by their summed scores), with `@reward-lens/search`'s `rerank`.
 */
export async function compareCandidates(prm: ProcessRM, problem: string, candidates: readonly string[], how: AggregateName): Promise<Comparison> {
  const started = performance.now();
  const result = await rerank(prm, problem, candidates, { method: 'weighted-vote', aggregate: how });
  const bestOfNOrder = [...result.candidates]
    .sort((left, right) => (right.score ?? -Infinity) - (left.score ?? -Infinity) || left.index - right.index)
    .map((candidate) => candidate.index);
  return { result, bestOfNOrder, elapsedMs: performance.now() - started };
}

/** The candidates of a text box: blocks separated by a line holding only `---`. */
export function splitCandidates(text: string): string[] {
  return text
    .split(/^\s*---\s*$/m)
    .map((block) => block.trim())
    .filter((block) => block !== '');
}
