import { InvalidInputError } from '@reward-lens/core';
import { defaultAnswerChecker, type AnswerChecker } from '../answers/answer-checker.js';
import { completeSolutions, statesAnswer } from '../policy/complete-solutions.js';
import { deriveSeed } from '../policy/derive-seed.js';
import type { StepPolicy } from '../policy/step-policy.js';
import type { LabelInput, PrefixValue, PrefixValueStore, StepLabels } from './label-types.js';

export interface MonteCarloOptions {
  /** Completions per prefix (N). Default 8. */
  rollouts?: number;
  /** `sweep`: every prefix (hard, soft and progress labels). `binary`: OmegaPRM's binary search for the first error (hard labels up to it). Default `sweep`. */
  mode?: 'sweep' | 'binary';
  checker?: AnswerChecker;
  /** Steps a rollout may add. Default 32. */
  maxSteps?: number;
  /** Seeds the rollouts; prefix k's rollouts use `deriveSeed(seed, k)`, so a resumed run draws the same ones. Default 0. */
  seed?: number;
  /** Values computed earlier (resuming); new ones are put here. */
  store?: PrefixValueStore;
  signal?: AbortSignal;
}

/**
 * Monte-Carlo step labels (Math-Shepherd, OmegaPRM): from each prefix s_1..s_k the completer
 * policy rolls out N completions, and v_k is the share whose final answer matches the reference
 * (v_0 from the problem alone). Hard labels 1[v_k > 0], soft labels v_k, progress v_k - v_{k-1}.
 * The whole solution's value is its own stated answer checked (no rollouts), when it states one.
 *
 * `binary` finds the first error as OmegaPRM does, in about log2(K) prefixes: it assumes that once
 * a prefix cannot reach the answer, no longer one can.
 *
 * @example
 * const labels = await monteCarloLabels(policy, { problem, steps, reference: '72' }, { rollouts: 16 });
 * labels.hard; // [true, true, false, false]
 */
export async function monteCarloLabels(policy: StepPolicy, input: LabelInput, options: MonteCarloOptions = {}): Promise<StepLabels> {
  const rollouts = options.rollouts ?? 8;
  if (!Number.isInteger(rollouts) || rollouts < 1) throw new InvalidInputError(`rollouts must be a positive integer, got ${rollouts}`);
  const steps = input.steps;
  if (steps.length === 0) throw new InvalidInputError('a solution to label needs at least one step');
  const checker = options.checker ?? defaultAnswerChecker;
  const mode = options.mode ?? 'sweep';
  const seed = options.seed ?? 0;
  const K = steps.length;
  const finalStated = statesAnswer(steps[K - 1]!, checker);
  let completions = 0;
  const values: (number | null)[] = new Array(K + 1).fill(null);

  const solved = (completionSteps: readonly string[]) => {
    const answer = checker.extract(completionSteps.join('\n'));
    return answer !== null && checker.equal(answer.text, input.reference, { problem: input.problem });
  };

  async function value(k: number): Promise<number> {
    const known = options.store?.get(k);
    if (known) {
      values[k] = known.value;
      return known.value;
    }
    let computed: PrefixValue;
    if (k === K && finalStated) {
      const ok = solved(steps);
      computed = { k, successes: ok ? 1 : 0, rollouts: 0, value: ok ? 1 : 0, source: 'final-answer' };
    } else {
      const prefix = steps.slice(0, k);
      const [samples] = await completeSolutions(policy, [{ problem: input.problem, steps: prefix, count: rollouts, seed: deriveSeed(seed, k) }], {
        checker,
        maxSteps: options.maxSteps ?? 32,
        ...(options.signal ? { signal: options.signal } : {}),
      });
      completions += rollouts;
      const successes = samples!.filter((sample) => solved([...prefix, ...sample.steps])).length;
      computed = { k, successes, rollouts, value: successes / rollouts, source: 'rollouts' };
    }
    await options.store?.put(computed);
    values[k] = computed.value;
    return computed.value;
  }

  const fullSweepCompletions = rollouts * (K + 1 - (finalStated ? 1 : 0));
  const v0 = await value(0);
  const base = { values, completions: 0, fullSweepCompletions, solvable: v0 > 0 };

  if (mode === 'sweep') {
    for (let k = 1; k <= K; k++) await value(k);
    const perStep = values.slice(1) as number[];
    const firstError = perStep.indexOf(0);
    return {
      ...base,
      mode,
      hard: perStep.map((v) => v > 0),
      soft: perStep,
      progress: perStep.map((v, index) => v - (values[index] as number)),
      firstError: firstError < 0 ? null : firstError,
      completions,
    };
  }

  if (v0 === 0) return { ...base, mode, hard: [], soft: [], progress: [], firstError: null, completions };
  if ((await value(K)) > 0) return { ...base, mode, hard: steps.map(() => true), soft: [], progress: [], firstError: null, completions };
  // Invariant: v_(low-1) > 0 and v_high = 0; the first error is step `high` (1-based) when they meet.
  let low = 1;
  let high = K;
  while (low < high) {
    const middle = Math.floor((low + high) / 2);
    if ((await value(middle)) > 0) low = middle + 1;
    else high = middle;
  }
  return {
    ...base,
    mode,
    hard: Array.from({ length: high }, (_, index) => index < high - 1),
    soft: [],
    progress: [],
    firstError: high - 1,
    completions,
  };
}
