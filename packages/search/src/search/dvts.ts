import type { ProcessRM } from '@reward-lens/core';
import { defaultAnswerChecker } from '../answers/answer-checker.js';
import { deriveSeed } from '../policy/derive-seed.js';
import type { StepPolicy } from '../policy/step-policy.js';
import { checkSearchShape } from './beam-search.js';
import { expandNodes, type ExpandContext } from './expand.js';
import { finishSearch, rankScore, toSolution } from './finish-search.js';
import { fullScorer, incrementalScorer, type SearchNode } from './prefix-scorer.js';
import { emptyCounts, type SearchOptions, type SearchResult, type SearchSolution } from './search-types.js';

/**
 * Diverse verifier tree search (Beeching et al., search-and-learn): n/b independent subtrees; at
 * every iteration each open subtree's path is extended by b steps from the policy and keeps only
 * its best expansion by `rankBy` (ties: the earlier proposal). A subtree is done when that best
 * step states an answer or the policy ends it, or at the step budget. One solution per subtree.
 */
export async function dvts(prm: ProcessRM, policy: StepPolicy, problem: string, options: SearchOptions): Promise<SearchResult> {
  const { n, beamWidth, maxSteps } = checkSearchShape(options);
  const counts = emptyCounts(options.meter !== undefined);
  const notes: string[] = [];
  const checker = options.checker ?? defaultAnswerChecker;
  const rankBy = options.rankBy ?? 'last';
  const pickBy = options.pickBy ?? 'last';
  const seed = options.seed ?? 0;
  const scorer = options.scoring === 'full' ? fullScorer(prm, counts, options.meter) : incrementalScorer(prm, counts, options.meter);
  const context: ExpandContext = { problem, policy, scorer, checker, counts, notes, ...(options.signal ? { signal: options.signal } : {}) };
  const solutions: (SearchSolution | null)[] = Array.from({ length: n / beamWidth }, () => null);

  const root = await scorer.root(problem);
  // Subtree i's current path; null once it is finished.
  const paths: (SearchNode | null)[] = solutions.map(() => root);
  const release = (node: SearchNode) => {
    if (node !== root) scorer.release(node);
  };
  try {
    while (counts.iterations < maxSteps && paths.some((path) => path !== null)) {
      const iteration = counts.iterations++;
      const open = paths.flatMap((path, subtree) => (path === null ? [] : [{ path, subtree }]));
      const { expansions, ended } = await expandNodes(
        context,
        open.map(({ path }) => path),
        open.map(() => beamWidth),
        open.map(({ subtree }) => deriveSeed(deriveSeed(seed, iteration), subtree)),
      );
      for (const { parent, end } of ended) {
        const { path, subtree } = open[parent]!;
        if (path.steps.length > 0) solutions[subtree] = toSolution(problem, path, end, pickBy, checker);
        paths[subtree] = null;
        release(path);
      }
      open.forEach(({ path, subtree }, parent) => {
        const own = expansions.filter((expansion) => expansion.parent === parent);
        if (own.length === 0) return;
        const best = own.reduce((top, expansion) => (rankScore(expansion.node, rankBy) > rankScore(top.node, rankBy) ? expansion : top));
        for (const expansion of own) if (expansion !== best) scorer.release(expansion.node);
        release(path);
        if (best.end !== null) {
          solutions[subtree] = toSolution(problem, best.node, best.end, pickBy, checker);
          scorer.release(best.node);
          paths[subtree] = null;
        } else paths[subtree] = best.node;
      });
    }
    const unfinished = paths.filter((path) => path !== null && path.steps.length > 0).length;
    if (unfinished > 0) notes.push(`the step budget (${maxSteps}) ended ${unfinished} subtree(s) before an answer`);
    paths.forEach((path, subtree) => {
      if (path !== null && path.steps.length > 0) solutions[subtree] = toSolution(problem, path, 'budget', pickBy, checker);
    });
  } finally {
    for (const path of paths) if (path !== null) release(path);
    scorer.release(root);
  }
  return finishSearch(
    'dvts',
    solutions.filter((solution): solution is SearchSolution => solution !== null),
    options.select ?? 'best',
    counts,
    notes,
  );
}
