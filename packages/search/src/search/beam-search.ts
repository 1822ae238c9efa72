import { InvalidInputError, type ProcessRM } from '@reward-lens/core';
import { defaultAnswerChecker } from '../answers/answer-checker.js';
import { deriveSeed } from '../policy/derive-seed.js';
import type { StepPolicy } from '../policy/step-policy.js';
import { expandNodes, type ExpandContext } from './expand.js';
import { finishSearch, rankScore, toSolution } from './finish-search.js';
import { fullScorer, incrementalScorer, type SearchNode } from './prefix-scorer.js';
import { emptyCounts, type SearchOptions, type SearchResult, type SearchSolution, type SolutionEnd } from './search-types.js';

export function checkSearchShape(options: SearchOptions): { n: number; beamWidth: number; maxSteps: number } {
  const n = options.n;
  const beamWidth = options.beamWidth ?? 4;
  const maxSteps = options.maxSteps ?? 16;
  if (!Number.isInteger(n) || n < 1) throw new InvalidInputError(`n must be a positive integer, got ${n}`);
  if (!Number.isInteger(beamWidth) || beamWidth < 1 || n % beamWidth !== 0)
    throw new InvalidInputError(`the beam width must divide n: n ${n}, beam width ${beamWidth}`);
  if (!Number.isInteger(maxSteps) || maxSteps < 1) throw new InvalidInputError(`maxSteps must be a positive integer, got ${maxSteps}`);
  return { n, beamWidth, maxSteps };
}

/**
 * Step-level beam search guided by the PRM (as in search-and-learn): the first iteration samples
 * n first steps; every later one extends each of the n/b kept prefixes by b steps from the policy.
 * The new steps are scored on the kept prefixes' caches (never re-scoring a prefix), the n/b best
 * unfinished prefixes by `rankBy` are kept (ties: the earlier parent, then the earlier proposal),
 * and a prefix is finished when its step states an answer, the policy ends it, or the budget runs
 * out. Stops when n solutions are finished or nothing is left to extend.
 */
export async function beamSearch(prm: ProcessRM, policy: StepPolicy, problem: string, options: SearchOptions): Promise<SearchResult> {
  const { n, beamWidth, maxSteps } = checkSearchShape(options);
  const keep = n / beamWidth;
  const counts = emptyCounts(options.meter !== undefined);
  const notes: string[] = [];
  const checker = options.checker ?? defaultAnswerChecker;
  const rankBy = options.rankBy ?? 'last';
  const pickBy = options.pickBy ?? 'last';
  const seed = options.seed ?? 0;
  const scorer = options.scoring === 'full' ? fullScorer(prm, counts, options.meter) : incrementalScorer(prm, counts, options.meter);
  const context: ExpandContext = { problem, policy, scorer, checker, counts, notes, ...(options.signal ? { signal: options.signal } : {}) };
  const solutions: SearchSolution[] = [];
  const finish = (node: SearchNode, end: SolutionEnd) => solutions.push(toSolution(problem, node, end, pickBy, checker));

  let active: SearchNode[] = [await scorer.root(problem)];
  try {
    while (active.length > 0 && counts.iterations < maxSteps && solutions.length < n) {
      const iteration = counts.iterations++;
      const perParent = active.map(() => (iteration === 0 ? n : beamWidth));
      const seeds = active.map((_, index) => deriveSeed(deriveSeed(seed, iteration), index));
      const { expansions, ended } = await expandNodes(context, active, perParent, seeds);
      for (const { parent, end } of ended) if (active[parent]!.steps.length > 0) finish(active[parent]!, end);
      const open = [];
      for (const expansion of expansions) {
        if (expansion.end !== null) {
          finish(expansion.node, expansion.end);
          scorer.release(expansion.node);
        } else open.push(expansion);
      }
      open.sort((left, right) => rankScore(right.node, rankBy) - rankScore(left.node, rankBy) || left.order - right.order);
      for (const pruned of open.slice(keep)) scorer.release(pruned.node);
      for (const parent of active) scorer.release(parent);
      active = open.slice(0, keep).map((expansion) => expansion.node);
    }
    if (active.some((node) => node.steps.length > 0) && solutions.length < n)
      notes.push(`the step budget (${maxSteps}) ended ${active.length} path(s) before an answer`);
    for (const node of active) if (node.steps.length > 0 && solutions.length < n) finish(node, 'budget');
  } finally {
    for (const node of active) scorer.release(node);
  }
  return finishSearch('beam', solutions, options.select ?? 'best', counts, notes);
}
