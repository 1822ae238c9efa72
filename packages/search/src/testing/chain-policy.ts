import { InvalidInputError } from '@reward-lens/core';
import { deriveSeed } from '../policy/derive-seed.js';
import type { Completion, StepPolicy, StepProposal } from '../policy/step-policy.js';

/**
 * A synthetic policy whose success probabilities are known in closed form, for testing Monte-Carlo
 * labels until the organism's policy replaces it. A problem is a chain of additions
 * (`chainProblem([3, 5, 7])`); each step adds the next number to the running total. From a right
 * total a step stays right with probability `stepSuccess` (p), else it writes a wrong total; from
 * a wrong total it is rescued by a compensating error with probability `rescue` (q), else it adds
 * correctly to the wrong total and stays wrong. The last step states the answer (`\boxed{}`).
 */
export interface ChainPolicyOptions {
  stepSuccess: number;
  rescue?: number;
  /** Tokens per step (for counts). Default 8. */
  tokensPerStep?: number;
  /** Waits this long per call (to make a run slow enough to interrupt in a test). Default 0. */
  delayMs?: number;
}

/** "Start at 0. Add 3, then 5, then 7. What is the total?" */
export function chainProblem(addends: readonly number[]): string {
  return `Start at 0. Add ${addends.join(', then ')}. What is the total?`;
}

export function parseChainProblem(problem: string): number[] {
  const match = /^Start at 0\. Add (.+)\. What is the total\?$/.exec(problem);
  if (!match) throw new InvalidInputError(`not a chain problem: ${JSON.stringify(problem.slice(0, 80))}`);
  return match[1]!.split(', then ').map(Number);
}

/** Step k (0-based) of a chain: `12 + 7 = 19.`, the last one stating the answer. */
export function chainStep(total: number, addend: number, result: number, last: boolean): string {
  return `${total} + ${addend} = ${result}.${last ? ` The answer is \\boxed{${result}}.` : ''}`;
}

/** The running total a prefix has reached (0 before the first step). */
export function chainTotal(steps: readonly string[]): number {
  if (steps.length === 0) return 0;
  const match = /= (-?\d+)\./.exec(steps[steps.length - 1]!);
  if (!match) throw new InvalidInputError(`not a chain step: ${JSON.stringify(steps[steps.length - 1])}`);
  return Number(match[1]);
}

/** A correct solution of a chain problem; `errorAt` (0-based) plants a wrong total there, carried on after it. */
export function chainSolution(addends: readonly number[], errorAt?: number, offset = 1): string[] {
  let total = 0;
  return addends.map((addend, index) => {
    const result = total + addend + (index === errorAt ? offset : 0);
    const step = chainStep(total, addend, result, index === addends.length - 1);
    total = result;
    return step;
  });
}

/**
 * The probability that a rollout from a prefix reaches the right answer, `remaining` steps before
 * the end, from a right (or wrong) running total: with λ = p − q and π = q / (1 − p + q),
 * P(right) = π + (1 − π)λ^m from a right total and π(1 − λ^m) from a wrong one.
 */
export function chainSuccessProbability(options: Pick<ChainPolicyOptions, 'stepSuccess' | 'rescue'>, right: boolean, remaining: number): number {
  const p = options.stepSuccess;
  const q = options.rescue ?? 0;
  const denominator = 1 - p + q;
  if (denominator === 0) return right ? 1 : 0;
  const stationary = q / denominator;
  const decay = (p - q) ** remaining;
  return right ? stationary + (1 - stationary) * decay : stationary * (1 - decay);
}

/** The true value of the prefix of the first `k` steps of a chain solution. */
export function chainPrefixValue(options: Pick<ChainPolicyOptions, 'stepSuccess' | 'rescue'>, problem: string, steps: readonly string[], k: number): number {
  const addends = parseChainProblem(problem);
  const prefix = steps.slice(0, k);
  const right = chainTotal(prefix) === addends.slice(0, k).reduce((sum, value) => sum + value, 0);
  return chainSuccessProbability(options, right, addends.length - k);
}

/** mulberry32: 32-bit state, floats in [0, 1). */
function randomStream(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function createChainPolicy(options: ChainPolicyOptions): StepPolicy {
  const p = options.stepSuccess;
  const q = options.rescue ?? 0;
  if (!(p >= 0 && p <= 1 && q >= 0 && q <= 1)) throw new InvalidInputError(`stepSuccess and rescue must be probabilities, got ${p} and ${q}`);
  const tokens = options.tokensPerStep ?? 8;
  const pause = () => (options.delayMs ? new Promise((resolve) => setTimeout(resolve, options.delayMs)) : Promise.resolve());

  /** The next step from a prefix, drawing one number; null when the chain is complete. */
  function nextStep(addends: readonly number[], steps: readonly string[], random: () => number): string | null {
    const k = steps.length;
    if (k >= addends.length) return null;
    const total = chainTotal(steps);
    const truth = addends.slice(0, k + 1).reduce((sum, value) => sum + value, 0);
    const right = total === truth - addends[k]!;
    const draw = random();
    let result: number;
    if (right) {
      // A wrong total: off by 1 to 9 either way.
      const offset = (1 + Math.floor(random() * 9)) * (random() < 0.5 ? -1 : 1);
      result = draw < p ? truth : truth + offset;
    } else result = draw < q ? truth : total + addends[k]!;
    return chainStep(total, addends[k]!, result, k === addends.length - 1);
  }

  return {
    name: `chain(p=${p}, q=${q})`,
    async nextSteps(requests) {
      await pause();
      return requests.map((request) => {
        const addends = parseChainProblem(request.problem);
        return Array.from({ length: request.count }, (_, sample): StepProposal => {
          const step = nextStep(addends, request.steps, randomStream(deriveSeed(request.seed, sample)));
          return step === null ? { text: '', tokens: 1, end: 'eos' } : { text: step, tokens, end: 'step' };
        });
      });
    },
    async complete(requests) {
      await pause();
      return requests.map((request) => {
        const addends = parseChainProblem(request.problem);
        return Array.from({ length: request.count }, (_, sample): Completion => {
          const random = randomStream(deriveSeed(request.seed, sample));
          const steps: string[] = [];
          for (let step = nextStep(addends, request.steps, random); step !== null; step = nextStep(addends, [...request.steps, ...steps], random))
            steps.push(step);
          return { steps, tokens: steps.length * tokens, end: 'eos' };
        });
      });
    },
  };
}
