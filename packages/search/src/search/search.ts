import type { ProcessRM } from '@reward-lens/core';
import type { StepPolicy } from '../policy/step-policy.js';
import { beamSearch } from './beam-search.js';
import { bestOfNSearch } from './best-of-n-search.js';
import { dvts } from './dvts.js';
import type { SearchOptions, SearchResult, SearchStrategy } from './search-types.js';

/**
 * Searches for a solution of `problem` with a policy and a PRM: `beam` (step-level beam search),
 * `dvts` (diverse verifier tree search) or `best-of-n` (whole solutions, reranked).
 *
 * @example
 * const result = await search(prm, policy, problem, { strategy: 'beam', n: 16, beamWidth: 4 });
 * result.solutions[result.pick!].steps; result.counts.generatedTokens;
 */
export function search(prm: ProcessRM, policy: StepPolicy, problem: string, options: SearchOptions & { strategy: SearchStrategy }): Promise<SearchResult> {
  switch (options.strategy) {
    case 'beam':
      return beamSearch(prm, policy, problem, options);
    case 'dvts':
      return dvts(prm, policy, problem, options);
    case 'best-of-n':
      return bestOfNSearch(prm, policy, problem, options);
  }
}
