import { type GenerateOptions, type Generation, InvalidInputError, type StopReason, type TextGenerator } from '@reward-lens/core';
import { applyOperation } from './operations.js';
import { chainValues, parseProblem, type ProblemStructure } from './problem.js';
import { operationTemplate } from './problem-grammar.js';
import { createRandom, deriveSeed, type Random } from './random.js';
import {
  nearMisses,
  type SolutionContext,
  tailFeasible,
  type Written,
  type WriterState,
  writeAnswer,
  writeCorrect,
  writeWrongCopy,
  writeWrongOperation,
  writeWrongResult,
} from './solution-writer.js';
import { policySuccessProbability } from './success-probability.js';
import { createOrganismTokenizer } from './organism-tokenizer.js';
import { verifySolution } from './verify-solution.js';

/** The errors the policy makes when it is not rescuing: each takes the running quantity off its true value. */
export type PolicyErrorKind = 'wrong-result' | 'wrong-copy' | 'wrong-operation';

export const policyErrorKinds: readonly PolicyErrorKind[] = ['wrong-result', 'wrong-copy', 'wrong-operation'];

export interface OrganismPolicyOptions {
  /** p: the chance that each new step (the answer step too) is wrong. Default 0.1. */
  errorProbability?: number;
  /** ρ: the chance that a wrong step written off track is a compensating one (back to the true quantity). Default 0.1. */
  rescueProbability?: number;
  /** The kinds of its other wrong steps, drawn uniformly. Default all three. */
  errorKinds?: readonly PolicyErrorKind[];
}

/** A completion: the steps written after the prefix, and whether the solution's answer is right. */
export interface PolicyRollout {
  readonly steps: string[];
  readonly finalAnswerCorrect: boolean;
}

/**
 * A stochastic solver of organism problems that continues any prefix one step at a time, and a
 * `TextGenerator`, so search and Monte-Carlo labelling can use it as they would a language model.
 */
export interface OrganismPolicy extends TextGenerator {
  readonly errorProbability: number;
  readonly rescueProbability: number;
  readonly errorKinds: readonly PolicyErrorKind[];
  /** The step after `steps`; null when the prefix already states its answer. */
  nextStep(problem: string, steps: readonly string[], random: Random): string | null;
  /** The rest of the solution, to its answer step. */
  complete(problem: string, steps: readonly string[], random: Random): PolicyRollout;
  /** `count` completions of the prefix, completion `i` seeded by `deriveSeed(seed, i)`. */
  rollouts(problem: string, steps: readonly string[], count: number, seed: number): PolicyRollout[];
  /** The exact chance that a completion of this prefix reaches the right answer (see `policySuccessProbability`). */
  successProbability(problem: string, steps: readonly string[]): number;
}

interface Prefix {
  structure: ProblemStructure;
  truth: number[];
  state: WriterState;
  answered: boolean;
  finalAnswerCorrect: boolean;
}

/**
 * The organism's policy.
 *
 * @example
 * const policy = createOrganismPolicy({ errorProbability: 0.2, rescueProbability: 0.1 });
 * const [generation] = await policy.generate([`${problem}\n${steps.join('\n')}\n`], { stop: ['\n'], seed: 3 });
 * policy.successProbability(problem, steps); // what Monte-Carlo rollouts of it estimate
 */
export function createOrganismPolicy(options: OrganismPolicyOptions = {}): OrganismPolicy {
  const errorProbability = options.errorProbability ?? 0.1;
  const rescueProbability = options.rescueProbability ?? 0.1;
  const errorKinds = [...new Set(options.errorKinds ?? policyErrorKinds)];
  if (!(errorProbability >= 0 && errorProbability <= 1)) throw new InvalidInputError(`errorProbability must be in [0, 1], got ${errorProbability}`);
  if (!(rescueProbability >= 0 && rescueProbability <= 1)) throw new InvalidInputError(`rescueProbability must be in [0, 1], got ${rescueProbability}`);
  if (errorKinds.length === 0 || errorKinds.some((kind) => !policyErrorKinds.includes(kind))) {
    throw new InvalidInputError(`errorKinds must be a non-empty list of ${policyErrorKinds.join(', ')}`);
  }
  const settings = { errorProbability, rescueProbability, errorKinds };
  const tokenizer = createOrganismTokenizer();

  const continuePrefix = (prefix: Prefix, random: Random, maxSteps = Number.POSITIVE_INFINITY): PolicyRollout & { answered: boolean } => {
    const context = policyContext(prefix.structure, prefix.truth, random);
    const steps: string[] = [];
    let state = prefix.state;
    let answered = prefix.answered;
    let finalAnswerCorrect = prefix.finalAnswerCorrect;
    while (!answered && steps.length < maxSteps) {
      const written = policyStep(context, state, random, settings);
      steps.push(written.step.text);
      state = written.state;
      if (written.step.stated !== undefined) {
        answered = true;
        finalAnswerCorrect = written.step.stated === prefix.truth.at(-1);
      }
    }
    return { steps, finalAnswerCorrect, answered };
  };

  return {
    ...settings,
    nextStep: (problem, steps, random) => continuePrefix(readPrefix(problem, steps), random, 1).steps[0] ?? null,
    complete(problem, steps, random) {
      const { steps: written, finalAnswerCorrect } = continuePrefix(readPrefix(problem, steps), random);
      return { steps: written, finalAnswerCorrect };
    },
    rollouts(problem, steps, count, seed) {
      const prefix = readPrefix(problem, steps);
      return Array.from({ length: count }, (_, index) => {
        const { steps: written, finalAnswerCorrect } = continuePrefix(prefix, createRandom(deriveSeed(seed, index)));
        return { steps: written, finalAnswerCorrect };
      });
    },
    successProbability(problem, steps) {
      const prefix = readPrefix(problem, steps);
      if (prefix.answered) return prefix.finalAnswerCorrect ? 1 : 0;
      const remaining = prefix.structure.operations.length - prefix.state.position + 1;
      return policySuccessProbability(errorProbability, rescueProbability, remaining, prefix.state.value === prefix.truth[prefix.state.position]);
    },
    async generate(prompts: readonly string[], generateOptions: Partial<GenerateOptions> = {}): Promise<Generation[]> {
      return prompts.map((prompt) => {
        const lines = prompt.split('\n');
        const endsLine = prompt.endsWith('\n');
        if (endsLine) lines.pop();
        const prefix = readPrefix(lines[0]!, lines.slice(1));
        // Only as many steps as the first stop string lets through are needed; the rest would be cut.
        const stopsAtLine = (generateOptions.stop ?? []).some((stop) => stop.includes('\n'));
        const rollout = continuePrefix(prefix, createRandom(deriveSeed(generateOptions.seed ?? 0)), stopsAtLine ? 1 : Number.POSITIVE_INFINITY);
        // Each step but the answer is followed by a newline (the next step's start), as a model would write it.
        const continuation = (endsLine || rollout.steps.length === 0 ? '' : '\n') + rollout.steps.join('\n') + (rollout.answered ? '' : '\n');
        return finishGeneration(prompt, continuation, generateOptions, tokenizer, rollout.answered);
      });
    },
  };
}

function readPrefix(problem: string, steps: readonly string[]): Prefix {
  const structure = parseProblem(problem);
  const truth = chainValues(structure);
  const verification = verifySolution(structure, steps);
  const { operationsDone, value, answered } = verification.progress;
  const state = { position: operationsDone, value };
  if (!answered && !tailFeasible({ structure, truth, leads: [], ceiling: Number.MAX_SAFE_INTEGER }, operationsDone, value)) {
    throw new InvalidInputError(`the running quantity ${value} cannot be carried through the remaining operations in whole numbers`, {
      location: `after step ${steps.length}`,
    });
  }
  return { structure, truth, state, answered, finalAnswerCorrect: verification.finalAnswerCorrect };
}

/** A solution context whose step phrasings are drawn for this completion. */
function policyContext(structure: ProblemStructure, truth: readonly number[], random: Random): SolutionContext {
  const leads = structure.operations.map((operation) => random.pick(operationTemplate(operation.template).leads));
  return { structure, truth, leads, ceiling: Number.MAX_SAFE_INTEGER };
}

interface PolicySettings {
  errorProbability: number;
  rescueProbability: number;
  errorKinds: readonly PolicyErrorKind[];
}

/** One step of the policy from `state` (see `policySuccessProbability` for the model). */
function policyStep(context: SolutionContext, state: WriterState, random: Random, settings: PolicySettings): Written {
  const { structure, truth } = context;
  const count = structure.operations.length;
  const onTrack = state.value === truth[state.position];
  const wrong = random.chance(settings.errorProbability);
  const rescue = wrong && !onTrack && random.chance(settings.rescueProbability);
  if (state.position >= count) {
    if (!wrong) return { step: writeAnswer(context, state), state };
    if (rescue) return { step: writeAnswer(context, state, truth[count]!), state };
    return { step: writeAnswer(context, state, random.pick(nearMisses(state.value).filter((value) => value !== truth[count]))), state };
  }
  if (!wrong) {
    const written = writeCorrect(context, state);
    if (written === null) throw new InvalidInputError(`${state.value} cannot take operation ${state.position + 1} in whole numbers`);
    return written;
  }
  if (rescue) return writeWrongResult(context, state, truth[state.position + 1]!);
  const kind = random.pick(settings.errorKinds);
  return (
    (kind === 'wrong-copy' ? wrongCopy(context, state, random) : kind === 'wrong-operation' ? wrongOperation(context, state, random) : undefined) ??
    wrongResult(context, state, random)
  );
}

/** Accepts a wrong step whose quantity is new (not the true one) and leaves the rest writable. */
function acceptable(context: SolutionContext, written: Written | null): written is Written {
  if (written === null) return false;
  const position = written.state.position;
  return written.state.value >= 1 && written.state.value !== context.truth[position] && tailFeasible(context, position, written.state.value);
}

function wrongResult(context: SolutionContext, state: WriterState, random: Random): Written {
  const operation = context.structure.operations[state.position]!;
  const correct = applyOperation(operation.operation, state.value, operation.operand)!;
  for (const result of random.shuffled(nearMisses(correct))) {
    const written = writeWrongResult(context, state, result);
    if (acceptable(context, written)) return written;
  }
  // A deviation by a multiple of every later divisor always keeps the rest whole.
  const divisors = context.structure.operations.slice(state.position + 1).filter((each) => each.operation === '÷');
  const step = divisors.reduce((product, each) => product * each.operand, 1);
  const result = correct + step === context.truth[state.position + 1] ? correct + 2 * step : correct + step;
  return writeWrongResult(context, state, result);
}

function wrongCopy(context: SolutionContext, state: WriterState, random: Random): Written | undefined {
  const { structure } = context;
  const operation = structure.operations[state.position]!;
  const later = new Set(structure.operations.slice(state.position + 1).map((each) => each.operand));
  const distractors = new Set(structure.distractors.map((each) => each.value));
  for (const side of random.shuffled(['left', 'right'] as const)) {
    const original = side === 'left' ? state.value : operation.operand;
    const candidates = nearMisses(original).filter(
      (value) =>
        !later.has(value) &&
        !distractors.has(value) &&
        (side === 'left' || value !== state.value) &&
        (side === 'left' || operation.operation === '+' || operation.operation === '−' || value >= 2),
    );
    for (const value of random.shuffled(candidates)) {
      const written = writeWrongCopy(context, state, side, value);
      if (acceptable(context, written)) return written;
    }
  }
  return undefined;
}

function wrongOperation(context: SolutionContext, state: WriterState, random: Random): Written | undefined {
  const operation = context.structure.operations[state.position]!;
  for (const symbol of random.shuffled((['+', '−', '×', '÷'] as const).filter((each) => each !== operation.operation))) {
    const written = writeWrongOperation(context, state, symbol);
    if (acceptable(context, written)) return written;
  }
  return undefined;
}

/** A `Generation` as core's `generate` reports one: stop strings, then `maxTokens`, then the end of the answer (EOS). */
function finishGeneration(
  prompt: string,
  continuation: string,
  options: Partial<GenerateOptions>,
  tokenizer: ReturnType<typeof createOrganismTokenizer>,
  ended: boolean,
): Generation {
  let text = continuation;
  let stopReason: StopReason = ended ? 'stop-token' : 'max-tokens';
  let cutAt = Number.POSITIVE_INFINITY;
  let stopLength = 0;
  for (const stop of options.stop ?? []) {
    const at = stop.length > 0 ? text.indexOf(stop) : -1;
    if (at >= 0 && at < cutAt) [cutAt, stopLength] = [at, stop.length];
  }
  if (Number.isFinite(cutAt)) {
    text = text.slice(0, options.includeStop ? cutAt + stopLength : cutAt);
    stopReason = 'stop-string';
  }
  let encoding = tokenizer.encode(text);
  const maxTokens = options.maxTokens ?? Number.POSITIVE_INFINITY;
  if (encoding.ids.length > maxTokens) {
    text = text.slice(0, maxTokens === 0 ? 0 : encoding.offsets[maxTokens - 1]![1]);
    encoding = tokenizer.encode(text);
    stopReason = 'max-tokens';
  }
  return { prompt, text, fullText: prompt + text, tokenIds: encoding.ids, stopReason };
}
