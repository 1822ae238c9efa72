import { createSeededRandom } from '../random/seeded-random.js';

/** One row of the Monte-Carlo label experiment (the shape `reward-lens simulate mc-labels --json` prints). */
export interface McLabelRow {
  /** Probability that each step is correct. */
  c: number;
  /** Rollouts per step. */
  n: number;
  /** Fraction of steps whose hard MC label equals the true label. */
  accuracy: number;
  /** Among truly wrong steps (their prefix holds an error), the fraction labelled correct. */
  falseCorrect: number;
  /** Among truly correct steps (a clean prefix), the fraction labelled wrong. */
  falseWrong: number;
}

export interface McLabelOptions {
  seed?: number;
  /** Default 4000. */
  solutions?: number;
  /** Default 8. */
  steps?: number;
  /** Success probability of a completion from a prefix with an error. Default 0.1. */
  epsilon?: number;
  /** Default [0.9, 0.7]. */
  stepCorrectProbabilities?: readonly number[];
  /** Default [1, 2, 4, 8, 16, 32, 64]. */
  rolloutCounts?: readonly number[];
}

/**
 * How good are hard Monte-Carlo labels? Solutions of `steps` steps, each correct with probability c.
 * A completion from a clean prefix ending at step k succeeds with probability c^(steps−k); from a
 * prefix holding an error, with probability ε. A step's true label is 1 when its prefix is clean;
 * its hard MC label is 1 when any of N rollouts succeeds. For each c the same solutions are
 * labelled with every N, and N rollouts are the first N of the largest N's (common random numbers),
 * so the rows differ only by N.
 */
export function simulateMcLabels(options: McLabelOptions = {}): McLabelRow[] {
  const random = createSeededRandom(options.seed ?? 0);
  const solutions = options.solutions ?? 4000;
  const steps = options.steps ?? 8;
  const epsilon = options.epsilon ?? 0.1;
  const counts = [...(options.rolloutCounts ?? [1, 2, 4, 8, 16, 32, 64])].sort((a, b) => a - b);
  const largest = counts[counts.length - 1] ?? 0;
  const rows: McLabelRow[] = [];
  for (const c of options.stepCorrectProbabilities ?? [0.9, 0.7]) {
    const tally = counts.map(() => ({ agree: 0, falseCorrect: 0, falseWrong: 0 }));
    let truePositives = 0;
    let trueNegatives = 0;
    for (let solution = 0; solution < solutions; solution++) {
      let clean = true;
      for (let step = 1; step <= steps; step++) {
        if (random.next() >= c) clean = false;
        const success = clean ? c ** (steps - step) : epsilon;
        // Index of the first successful rollout (largest + 1 when none succeeds): label(N) = first <= N.
        let first = largest + 1;
        for (let rollout = 1; rollout <= largest; rollout++) {
          if (random.next() < success) {
            first = rollout;
            break;
          }
        }
        if (clean) truePositives++;
        else trueNegatives++;
        counts.forEach((n, index) => {
          const label = first <= n;
          const entry = tally[index]!;
          if (label === clean) entry.agree++;
          else if (label) entry.falseCorrect++;
          else entry.falseWrong++;
        });
      }
    }
    counts.forEach((n, index) => {
      const entry = tally[index]!;
      rows.push({
        c,
        n,
        accuracy: entry.agree / (solutions * steps),
        falseCorrect: trueNegatives === 0 ? Number.NaN : entry.falseCorrect / trueNegatives,
        falseWrong: truePositives === 0 ? Number.NaN : entry.falseWrong / truePositives,
      });
    });
  }
  return rows;
}

/**
 * The same quantities in closed form: a wrong step is labelled correct with probability
 * 1 − (1 − ε)^N; a correct step k (probability c^k) is labelled wrong with probability (1 − c^(K−k))^N.
 */
export function mcLabelsClosedForm(c: number, n: number, options: { steps?: number; epsilon?: number } = {}): Omit<McLabelRow, 'c' | 'n'> {
  const steps = options.steps ?? 8;
  const epsilon = options.epsilon ?? 0.1;
  const falseCorrect = 1 - (1 - epsilon) ** n;
  let cleanMass = 0;
  let wrongLabelMass = 0;
  let errorMass = 0;
  for (let step = 1; step <= steps; step++) {
    const clean = c ** step;
    cleanMass += clean;
    wrongLabelMass += clean * (1 - c ** (steps - step)) ** n;
    errorMass += 1 - clean;
  }
  const falseWrong = wrongLabelMass / cleanMass;
  const accuracy = (cleanMass - wrongLabelMass + errorMass * (1 - falseCorrect)) / steps;
  return { accuracy, falseCorrect, falseWrong };
}
