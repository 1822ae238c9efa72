import { bestOfNCurves, type BestOfNCandidate, type BestOfNCurves, type BestOfNProblem } from '../diagnostics/best-of-n.js';
import { createSeededRandom } from '../random/seeded-random.js';

/** One row of the aggregation experiment (the shape `reward-lens simulate best-of-n --json` prints). */
export interface BestOfNToyRow {
  rule: string;
  finalAccuracy: number;
  processCorrect: number;
  meanSteps: number;
}

export interface BestOfNToyOptions {
  seed?: number;
  /** Default 3000. */
  problems?: number;
  /** Candidates per problem. Default 16. */
  candidates?: number;
  /** Default 4 and 16 (uniform, both included). */
  minSteps?: number;
  maxSteps?: number;
  /** Default 0.1. */
  stepErrorProbability?: number;
  /** Chance a flawed solution still has the right final answer. Default 0.15. */
  luckyAnswerProbability?: number;
  /** Logit before the first error (default 1.5) and from it on (default −0.5); noise sd (default 1.5). */
  cleanLogit?: number;
  errorLogit?: number;
  noise?: number;
}

export interface BestOfNToyResult {
  rows: BestOfNToyRow[];
  meanSampledSteps: number;
  /** The same candidates, picked at N = 1, 2, 4, 8, 16 (averaged over resamples), for the plots. */
  curves: BestOfNCurves;
}

const sigmoid = (logit: number) => 1 / (1 + Math.exp(-logit));

/**
 * Aggregation in best-of-16. Solutions of 4 to 16 steps, each step wrong with probability 0.1; a
 * flawed solution still has a 15% chance of the right final answer. A simulated PRM gives each step
 * sigmoid(logit), logit +1.5 before the first error and −0.5 from it on, plus Gaussian noise
 * (sd 1.5); a simulated ORM gives one score: +1.5 for a right final answer, −0.5 otherwise, plus the
 * same noise. The best of 16 is picked by min, prod, mean, last and by the ORM.
 */
export function simulateBestOfN(options: BestOfNToyOptions = {}): BestOfNToyResult {
  const random = createSeededRandom(options.seed ?? 0);
  const count = options.candidates ?? 16;
  const minSteps = options.minSteps ?? 4;
  const maxSteps = options.maxSteps ?? 16;
  const stepError = options.stepErrorProbability ?? 0.1;
  const lucky = options.luckyAnswerProbability ?? 0.15;
  const cleanLogit = options.cleanLogit ?? 1.5;
  const errorLogit = options.errorLogit ?? -0.5;
  const noise = options.noise ?? 1.5;
  const problems: BestOfNProblem[] = [];
  for (let problem = 0; problem < (options.problems ?? 3000); problem++) {
    const candidates: BestOfNCandidate[] = [];
    for (let index = 0; index < count; index++) {
      const length = random.integer(minSteps, maxSteps);
      let firstError = length;
      for (let step = 0; step < length; step++) {
        if (random.next() < stepError && firstError === length) firstError = step;
      }
      const flawed = firstError < length;
      const finalCorrect = !flawed || random.next() < lucky;
      const stepScores = new Float64Array(length);
      for (let step = 0; step < length; step++) stepScores[step] = sigmoid((step < firstError ? cleanLogit : errorLogit) + noise * random.gaussian());
      const outcomeScore = (finalCorrect ? cleanLogit : errorLogit) + noise * random.gaussian();
      candidates.push({ stepScores, finalCorrect, processCorrect: finalCorrect && !flawed, outcomeScore });
    }
    problems.push({ candidates });
  }
  const full = bestOfNCurves(problems, { ns: [count], outcomeRule: 'orm', seed: options.seed ?? 0 });
  const curves = bestOfNCurves(problems, { outcomeRule: 'orm', resamples: 4, seed: (options.seed ?? 0) + 1 });
  return {
    rows: full.points.map(({ rule, finalAccuracy, processCorrect, meanSteps }) => ({ rule, finalAccuracy, processCorrect, meanSteps })),
    meanSampledSteps: full.meanSampledSteps,
    curves,
  };
}
