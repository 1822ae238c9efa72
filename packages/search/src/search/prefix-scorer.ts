import { ScoredPrefix, type ProcessRM } from '@reward-lens/core';
import type { BackendMeter } from './meter-backend.js';
import type { SearchCounts } from './search-types.js';

/** A partial solution being searched: its steps and their scores, and (incrementally) its cache. */
export interface SearchNode {
  steps: string[];
  stepScores: number[];
  handle: ScoredPrefix | null;
}

/** Scores candidate next steps of search nodes, incrementally or from the start. */
export interface PrefixScorer {
  root(problem: string): Promise<SearchNode>;
  /** Per parent, its candidates (non-empty, distinct) as new nodes, in order. */
  extend(problem: string, groups: readonly { parent: SearchNode; candidates: readonly string[] }[]): Promise<SearchNode[][]>;
  release(node: SearchNode): void;
}

/**
 * Runs one scoring call, timing it. With a meter, the tokens it ran are counted exactly; without
 * one, `estimate` says how many (see `PrefixScorer`). `call: false` for work that is timed and
 * counted but is not a scoring call (the root prefix's one pass over the problem).
 */
async function scoring<Result>(
  counts: SearchCounts,
  meter: BackendMeter | undefined,
  work: () => Promise<Result>,
  estimate: (result: Result) => number,
  call = true,
): Promise<Result> {
  const tokensBefore = meter?.tokensSeen ?? 0;
  const started = performance.now();
  const result = await work();
  counts.scoringMs += performance.now() - started;
  if (call) counts.scoringCalls++;
  counts.scoredTokens += meter ? meter.tokensSeen - tokensBefore : estimate(result);
  return result;
}

/**
 * The candidates of every parent are scored together from the parents' caches
 * (`ScoredPrefix.extendAll`): one scoring call per iteration. Without a meter the tokens counted
 * are those each new prefix ran (`tokensRun`), which is what the backend ran.
 */
export function incrementalScorer(prm: ProcessRM, counts: SearchCounts, meter?: BackendMeter): PrefixScorer {
  return {
    async root(problem) {
      // The root runs the problem's tokens once for all first steps: counted, timed, not a scoring call.
      const handle = await scoring(
        counts,
        meter,
        () => prm.prefix(problem),
        (root) => root.tokensRun,
        false,
      );
      return { steps: [], stepScores: [], handle };
    },
    async extend(_problem, groups) {
      const scored = groups.filter(({ candidates }) => candidates.length > 0);
      if (scored.length === 0) return groups.map(() => []);
      const extended = await scoring(
        counts,
        meter,
        () => ScoredPrefix.extendAll(scored.map(({ parent, candidates }) => ({ prefix: parent.handle!, candidates }))),
        (children) => children.flat().reduce((sum, child) => sum + child.tokensRun, 0),
      );
      counts.scoredSteps += scored.reduce((sum, { candidates }) => sum + candidates.length, 0);
      let next = 0;
      return groups.map(({ candidates }) =>
        candidates.length === 0 ? [] : extended[next++]!.map((child) => ({ steps: [...child.steps], stepScores: Array.from(child.stepScores), handle: child })),
      );
    },
    release(node) {
      node.handle?.release();
    },
  };
}

/** Every candidate prefix is scored from the start, all of an iteration in one batched call: what Python search libraries do. */
export function fullScorer(prm: ProcessRM, counts: SearchCounts, meter?: BackendMeter): PrefixScorer {
  return {
    async root() {
      return { steps: [], stepScores: [], handle: null };
    },
    async extend(problem, groups) {
      const inputs = groups.flatMap(({ parent, candidates }) => candidates.map((candidate) => ({ problem, steps: [...parent.steps, candidate] })));
      if (inputs.length === 0) return groups.map(() => []);
      const evidence = await scoring(
        counts,
        meter,
        () => prm.stepScores(inputs),
        () => inputs.reduce((sum, input) => sum + prm.tokenize(input).inputIds.length, 0),
      );
      counts.scoredSteps += inputs.length;
      let next = 0;
      return groups.map(({ candidates }) =>
        candidates.map(() => {
          const index = next++;
          return { steps: [...inputs[index]!.steps], stepScores: Array.from(evidence.value.curves[index]!), handle: null };
        }),
      );
    },
    release() {},
  };
}
