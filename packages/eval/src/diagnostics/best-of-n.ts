import { getAggregator } from '@reward-lens/core';
import { InvalidInputError } from '@reward-lens/core';
import { createSeededRandom } from '../random/seeded-random.js';

/** One sampled solution of a problem, with its step scores and the truth about it. */
export interface BestOfNCandidate {
  stepScores: ArrayLike<number>;
  /** The final answer is right. */
  finalCorrect: boolean;
  /** The final answer is right and no step is flawed. */
  processCorrect: boolean;
  /** An outcome-only score (an ORM's). Absent: the last step's score, the PRM read as an outcome model. */
  outcomeScore?: number;
}

export interface BestOfNProblem {
  candidates: readonly BestOfNCandidate[];
}

/** How the picks of one rule at one N fare, averaged over problems and resamples. */
export interface BestOfNPoint {
  n: number;
  rule: string;
  finalAccuracy: number;
  processCorrect: number;
  /** Picks with the right answer reached through a flawed step. */
  rightAnswerFlawedProcess: number;
  meanSteps: number;
}

export interface BestOfNOptions {
  /** Sizes to evaluate; each at most the smallest pool. Default: powers of two up to the smallest pool. */
  ns?: readonly number[];
  /** Aggregator names (core's registry). Default min, prod, mean, last. */
  aggregators?: readonly string[];
  /** Name of the outcome-only baseline rule. Default `outcome`. */
  outcomeRule?: string;
  /** Random subsets of size N drawn per problem (without replacement); a full pool needs one. Default 16. */
  resamples?: number;
  seed?: number;
}

export interface BestOfNCurves {
  rules: string[];
  ns: number[];
  points: BestOfNPoint[];
  /** Mean number of steps over every sampled candidate. */
  meanSampledSteps: number;
  /** The expected result of picking one candidate at random (the N = 1 value of every rule). */
  random: { finalAccuracy: number; processCorrect: number };
}

function powersOfTwoUpTo(limit: number): number[] {
  const ns: number[] = [];
  for (let n = 1; n <= limit; n *= 2) ns.push(n);
  if (ns[ns.length - 1] !== limit) ns.push(limit);
  return ns;
}

/**
 * Best-of-N selection curves: for each N, draw N of a problem's candidates, pick the one each rule
 * scores highest (an aggregate of its step scores, or the outcome-only baseline), and average the
 * pick's final-answer accuracy and process correctness over resamples and problems.
 *
 * @example
 * const curves = bestOfNCurves(problems, { ns: [1, 4, 16], resamples: 32 });
 */
export function bestOfNCurves(problems: readonly BestOfNProblem[], options: BestOfNOptions = {}): BestOfNCurves {
  if (problems.length === 0) throw new InvalidInputError('best-of-N needs at least one problem');
  const smallestPool = Math.min(...problems.map((problem) => problem.candidates.length));
  if (smallestPool < 1) throw new InvalidInputError('every problem needs at least one candidate');
  const ns = [...(options.ns ?? powersOfTwoUpTo(smallestPool))];
  for (const n of ns) {
    if (!Number.isInteger(n) || n < 1 || n > smallestPool) throw new InvalidInputError(`N = ${n} is not between 1 and the smallest pool (${smallestPool})`);
  }
  const aggregatorNames = [...(options.aggregators ?? ['min', 'prod', 'mean', 'last'])];
  const outcomeRule = options.outcomeRule ?? 'outcome';
  const rules = [...aggregatorNames, outcomeRule];
  const scorers = aggregatorNames.map((name) => getAggregator(name));
  const random = createSeededRandom(options.seed ?? 0);
  const resamples = options.resamples ?? 16;

  const totals = new Map<string, { final: number; process: number; flawedRight: number; steps: number; picks: number }>();
  for (const n of ns) for (const rule of rules) totals.set(`${n}:${rule}`, { final: 0, process: 0, flawedRight: 0, steps: 0, picks: 0 });
  let sampledSteps = 0;
  let sampled = 0;
  let randomFinal = 0;
  let randomProcess = 0;

  for (const problem of problems) {
    const pool = problem.candidates;
    // Each candidate's score under each rule, computed once.
    const scores = pool.map((candidate) => [
      ...scorers.map((scorer) => scorer(candidate.stepScores)),
      candidate.outcomeScore ?? candidate.stepScores[candidate.stepScores.length - 1]!,
    ]);
    for (const candidate of pool) {
      sampledSteps += candidate.stepScores.length;
      sampled++;
    }
    randomFinal += pool.filter((candidate) => candidate.finalCorrect).length / pool.length;
    randomProcess += pool.filter((candidate) => candidate.processCorrect).length / pool.length;
    const order = pool.map((_, index) => index);
    for (const n of ns) {
      const draws = n === pool.length ? 1 : resamples;
      for (let draw = 0; draw < draws; draw++) {
        // Partial Fisher–Yates: order[0..n) is a uniform random subset in random order, so ties break at random.
        for (let index = 0; index < n; index++) {
          const swap = index + Math.floor(random.next() * (pool.length - index));
          [order[index], order[swap]] = [order[swap]!, order[index]!];
        }
        rules.forEach((rule, ruleIndex) => {
          let best = order[0]!;
          for (let index = 1; index < n; index++) {
            const candidate = order[index]!;
            if (scores[candidate]![ruleIndex]! > scores[best]![ruleIndex]!) best = candidate;
          }
          const pick = pool[best]!;
          const total = totals.get(`${n}:${rule}`)!;
          const weight = 1 / draws;
          total.final += weight * Number(pick.finalCorrect);
          total.process += weight * Number(pick.processCorrect);
          total.flawedRight += weight * Number(pick.finalCorrect && !pick.processCorrect);
          total.steps += weight * pick.stepScores.length;
          total.picks += weight;
        });
      }
    }
  }
  const points: BestOfNPoint[] = [];
  for (const n of ns) {
    for (const rule of rules) {
      const total = totals.get(`${n}:${rule}`)!;
      points.push({
        n,
        rule,
        finalAccuracy: total.final / total.picks,
        processCorrect: total.process / total.picks,
        rightAnswerFlawedProcess: total.flawedRight / total.picks,
        meanSteps: total.steps / total.picks,
      });
    }
  }
  return {
    rules,
    ns,
    points,
    meanSampledSteps: sampledSteps / sampled,
    random: { finalAccuracy: randomFinal / problems.length, processCorrect: randomProcess / problems.length },
  };
}
