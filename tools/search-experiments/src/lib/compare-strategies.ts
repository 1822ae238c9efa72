import type { ProcessRM } from '@reward-lens/core';
import { verifySolution } from '@reward-lens/organism';
import { bestOfN, majorityVote, search, weightedVote, type BackendMeter, type StepPolicy } from '@reward-lens/search';
import { solutionCandidates } from '@reward-lens/search';

/** The ways of choosing a solution compared at one generation budget n (the last is an oracle: whether any sample is right). */
export const strategyNames = ['first sample', 'majority vote', 'best-of-N', 'weighted vote', 'beam search', 'DVTS', 'any of the N samples'] as const;
export type StrategyName = (typeof strategyNames)[number];

/** What one strategy chose for one problem, judged by the organism's verifier. */
export interface StrategyOutcome {
  strategy: StrategyName;
  /** The chosen solution states the problem's answer. */
  correct: boolean;
  /** The chosen solution has no wrong step (ProcessBench's label -1). */
  processCorrect: boolean;
  generatedTokens: number;
  scoredTokens: number;
}

export interface CompareOptions {
  /** The generation budget: samples for best-of-N and the votes, candidates per iteration for beam search and DVTS. */
  n: number;
  beamWidth: number;
  maxSteps: number;
  seed: number;
  /** Counts the PRM's tokens exactly. */
  meter?: BackendMeter;
  /** The aggregator partial solutions are ranked and finished ones picked by (default `last`). */
  pickBy?: string;
}

function judge(problem: string, steps: readonly string[] | undefined): { correct: boolean; processCorrect: boolean } {
  if (steps === undefined || steps.length === 0) return { correct: false, processCorrect: false };
  const verification = verifySolution(problem, steps);
  return { correct: verification.finalAnswerCorrect, processCorrect: verification.firstErrorStep === -1 };
}

/**
 * Every strategy on one problem at budget n. Best-of-N, both votes and the first sample choose
 * among the same n sampled solutions (one generation); beam search and DVTS search with n
 * candidates per iteration. Each choice is judged by the verifier, not by the answer checker.
 */
export async function compareOnProblem(prm: ProcessRM, policy: StepPolicy, problem: string, options: CompareOptions): Promise<StrategyOutcome[]> {
  const common = {
    n: options.n,
    beamWidth: options.beamWidth,
    maxSteps: options.maxSteps,
    seed: options.seed,
    ...(options.meter ? { meter: options.meter } : {}),
    ...(options.pickBy !== undefined ? { rankBy: options.pickBy, pickBy: options.pickBy } : {}),
  };
  const sampled = await search(prm, policy, problem, { ...common, strategy: 'best-of-n' });
  const candidates = solutionCandidates(sampled.solutions);
  const stepsAt = (pick: number | null) => (pick === null ? undefined : sampled.solutions[pick]?.steps);
  const shared = { generatedTokens: sampled.counts.generatedTokens, scoredTokens: sampled.counts.scoredTokens };
  const outcomes: StrategyOutcome[] = [
    {
      strategy: 'first sample',
      ...judge(problem, stepsAt(sampled.solutions.length > 0 ? 0 : null)),
      generatedTokens: shared.generatedTokens / options.n,
      scoredTokens: 0,
    },
    { strategy: 'majority vote', ...judge(problem, stepsAt(majorityVote(candidates).pick)), generatedTokens: shared.generatedTokens, scoredTokens: 0 },
    { strategy: 'best-of-N', ...judge(problem, stepsAt(bestOfN(candidates))), ...shared },
    { strategy: 'weighted vote', ...judge(problem, stepsAt(weightedVote(candidates).pick)), ...shared },
  ];
  const judged = sampled.solutions.map((solution) => judge(problem, solution.steps));
  const any = { correct: judged.some((each) => each.correct), processCorrect: judged.some((each) => each.processCorrect) };
  for (const [strategy, name] of [
    ['beam', 'beam search'],
    ['dvts', 'DVTS'],
  ] as const) {
    const result = await search(prm, policy, problem, { ...common, strategy });
    outcomes.push({
      strategy: name,
      ...judge(problem, result.pick === null ? undefined : result.solutions[result.pick]!.steps),
      generatedTokens: result.counts.generatedTokens,
      scoredTokens: result.counts.scoredTokens,
    });
  }
  outcomes.push({ strategy: 'any of the N samples', ...any, generatedTokens: shared.generatedTokens, scoredTokens: 0 });
  return outcomes;
}

/** Per strategy, over problems: the share right, the share with no wrong step, and mean tokens. */
export interface StrategySummary {
  strategy: StrategyName;
  problems: number;
  accuracy: number;
  processAccuracy: number;
  generatedTokens: number;
  scoredTokens: number;
}

export function summarize(outcomes: readonly StrategyOutcome[][]): StrategySummary[] {
  return strategyNames.map((strategy) => {
    const rows = outcomes.map((perProblem) => perProblem.find((outcome) => outcome.strategy === strategy)!);
    const mean = (value: (outcome: StrategyOutcome) => number) => rows.reduce((sum, outcome) => sum + value(outcome), 0) / Math.max(rows.length, 1);
    return {
      strategy,
      problems: rows.length,
      accuracy: mean((outcome) => (outcome.correct ? 1 : 0)),
      processAccuracy: mean((outcome) => (outcome.processCorrect ? 1 : 0)),
      generatedTokens: mean((outcome) => outcome.generatedTokens),
      scoredTokens: mean((outcome) => outcome.scoredTokens),
    };
  });
}
