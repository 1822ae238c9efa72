import { aggregateScoredSteps, firstStepBelow, type CalibrationThreshold, type Gauge, type ProcessRM, type Trust } from '@reward-lens/core';

export const aggregateNames = ['min', 'prod', 'mean', 'last'] as const;
export type AggregateName = (typeof aggregateNames)[number];

export interface ScoredStep {
  index: number;
  text: string;
  /** The step's score as the backend gave it (float32, unrounded). */
  score: number;
}

/** One solution scored: every step, the outcome from its own call, and what the page shows about them. */
export interface ScoredSolution {
  steps: ScoredStep[];
  /** The step with the lowest score (the first of equal ones), among those with a score. */
  lowest: number;
  /** `prm.score(...)`: the outcome score, read at the end of the solution. */
  outcome: number;
  /** |outcome − last step's score|: 0 when "the last step is the outcome" holds exactly. */
  outcomeGap: number;
  aggregates: Record<AggregateName, number>;
  gauge: Gauge;
  trust: Trust;
  /** The calibration's decision threshold, when the model ships one and the scores are calibrated. */
  threshold?: CalibrationThreshold;
  /** With a threshold: the first step scoring below it (the predicted first error), -1 when none does. */
  predictedError: number;
  /** Why a domain check put the text outside the model's domain, when one did. */
  outOfDomain?: string;
  /** Which backend ran, skipped backends, step detection, truncation: the SDK's notes. */
  notes: string[];
  stepMethod: string;
  tokenCount: number;
  /** Milliseconds of `stepScores` and of `score`. */
  stepsMs: number;
  outcomeMs: number;
}

/** The index of the lowest score (the first of equal ones), among the steps that have one; -1 when none has. */
export function lowestIndex(scores: readonly number[]): number {
  let lowest = -1;
  for (let index = 0; index < scores.length; index++) {
    if (Number.isFinite(scores[index]!) && (lowest === -1 || scores[index]! < scores[lowest]!)) lowest = index;
  }
  return lowest;
}

/** The aggregates over the steps that have a score, with core's note naming the steps left out (as `reward-lens score` has it). */
export function aggregateStepScores(curve: readonly number[]): { aggregates: Record<AggregateName, number>; notes: string[] } {
  const { aggregates, notes } = aggregateScoredSteps(curve, aggregateNames);
  return { aggregates: Object.fromEntries(aggregates.map(({ name, value }) => [name, value])) as Record<AggregateName, number>, notes };
}

/**
 * Scores a solution (one step per line at the PRM's delimiter) in one forward pass, and its
 * outcome with `prm.score`: the two are separate calls, so "last step = outcome" is checked, not
 * assumed. Input the PRM cannot score throws its typed error.
 */
export async function scoreSolution(prm: ProcessRM, problem: string, solution: string): Promise<ScoredSolution> {
  const stepsStarted = performance.now();
  const evidence = await prm.stepScores([{ problem, solution }]);
  const stepsMs = performance.now() - stepsStarted;
  const outcomeStarted = performance.now();
  const outcome = await prm.score([{ problem, solution }]);
  const outcomeMs = performance.now() - outcomeStarted;

  const curve = Array.from(evidence.value.curves[0]!);
  const steps = evidence.value.steps[0]!.map((step, index) => ({ index, text: step.text, score: curve[index]! }));
  const outcomeScore = outcome.value.values[0]!;
  const meta = evidence.value.meta[0]!;
  const { aggregates, notes } = aggregateStepScores(curve);
  const threshold = evidence.gauge === 'PROBABILITY' ? prm.calibration?.threshold : undefined;
  return {
    steps,
    lowest: lowestIndex(curve),
    outcome: outcomeScore,
    outcomeGap: Math.abs(outcomeScore - curve[curve.length - 1]!),
    aggregates,
    gauge: evidence.gauge,
    trust: evidence.trust,
    ...(threshold ? { threshold } : {}),
    predictedError: threshold ? firstStepBelow(curve, threshold.value) : -1,
    ...(meta.outOfDomain !== undefined ? { outOfDomain: meta.outOfDomain } : {}),
    notes: [...evidence.notes, ...notes],
    stepMethod: meta.stepMethod,
    tokenCount: meta.tokenCount,
    stepsMs,
    outcomeMs,
  };
}
