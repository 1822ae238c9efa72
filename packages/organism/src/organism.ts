import { InvalidInputError } from '@reward-lens/core';
import { type BuiltProblem, buildProblem } from './build-problem.js';
import { injectError, injectionPositions, writeCleanSolution } from './inject-error.js';
import { type ErrorKind, type OrganismOptions, type ResolvedOrganismOptions, resolveOrganismOptions, singleErrorKinds } from './options.js';
import { chainValues } from './problem.js';
import { createRandom, deriveSeed, type Random } from './random.js';
import type { SolutionContext, WrittenStep } from './solution-writer.js';
import type { StepVerdict } from './verify-solution.js';

/** A problem, a solution, and the solution's ground truth. */
export interface OrganismItem {
  readonly id: string;
  readonly problem: string;
  /** One line each; the last states the answer. */
  readonly steps: readonly string[];
  /** Per step, the verdict it was written to have (the verifier reads the same). */
  readonly verdicts: readonly StepVerdict[];
  /** 0-based index of the first erroneous step, -1 when none (ProcessBench's `label`). */
  readonly firstErrorStep: number;
  /** The injected error, null for a correct solution. */
  readonly errorKind: ErrorKind | null;
  /** The problem's answer. */
  readonly answer: number;
  /** The answer the solution states. */
  readonly finalAnswer: number;
  readonly finalAnswerCorrect: boolean;
  /**
   * What a correct solution writes in place of the first erroneous step (the steps before it are
   * the same text in both), or null: a correct solution, or one whose first error is a step added
   * where a correct solution has ended. Where the two texts first differ is where the error begins,
   * which is what token-level labels need.
   */
  readonly expectedStep: string | null;
}

/** The same problem solved twice: correctly, and with one injected error at `step` (the steps before it are the same text). */
export interface MatchedPair {
  readonly id: string;
  readonly problem: string;
  readonly errorKind: ErrorKind;
  /** 0-based: the flawed solution's first error, where the two solutions first differ. */
  readonly step: number;
  readonly clean: OrganismItem;
  readonly flawed: OrganismItem;
}

/** A seeded source of organism problems, solutions and matched pairs. */
export interface Organism {
  readonly options: ResolvedOrganismOptions;
  /** Item `index` (0 or more) of this seed: the same however many others are drawn. */
  item(index: number): OrganismItem;
  /** `count` items from index `from` (default 0). */
  items(count: number, from?: number): OrganismItem[];
  /** Matched pair `index`, from a stream of its own (pair 3 and item 3 are unrelated). */
  pair(index: number): MatchedPair;
  pairs(count: number, from?: number): MatchedPair[];
}

const streams = { items: 1, pairs: 2 } as const;
const problemAttempts = 50;

/**
 * The organism's generator.
 *
 * @example
 * const organism = createOrganism({ seed: 0, steps: [3, 6], maxNumber: 50 });
 * const { problem, steps, firstErrorStep } = organism.item(0);
 */
export function createOrganism(options: OrganismOptions = {}): Organism {
  const resolved = resolveOrganismOptions(options);
  const pairKinds = resolved.errorKinds.filter((kind) => singleErrorKinds.includes(kind));
  const organism: Organism = {
    options: resolved,
    item: (index) => generateItem(resolved, checkIndex(index)),
    items: (count, from = 0) => Array.from({ length: checkCount(count) }, (_, offset) => organism.item(from + offset)),
    pair: (index) => {
      if (pairKinds.length === 0) {
        throw new InvalidInputError(`matched pairs need one of ${singleErrorKinds.join(', ')} among the error kinds`, {
          location: 'organism options: errorKinds',
        });
      }
      return generatePair(resolved, pairKinds, checkIndex(index));
    },
    pairs: (count, from = 0) => Array.from({ length: checkCount(count) }, (_, offset) => organism.pair(from + offset)),
  };
  return organism;
}

function checkIndex(index: number): number {
  if (!Number.isSafeInteger(index) || index < 0) throw new InvalidInputError(`an item index is a whole number, got ${index}`);
  return index;
}

function checkCount(count: number): number {
  if (!Number.isSafeInteger(count) || count < 0) throw new InvalidInputError(`a count is a whole number, got ${count}`);
  return count;
}

function contextOf(problem: BuiltProblem, options: ResolvedOrganismOptions): SolutionContext {
  return { structure: problem.structure, truth: chainValues(problem.structure), leads: problem.leads, ceiling: options.maxNumber };
}

function toItem(id: string, problem: BuiltProblem, context: SolutionContext, steps: readonly WrittenStep[], errorKind: ErrorKind | null): OrganismItem {
  const answer = context.truth.at(-1)!;
  const finalAnswer = steps.at(-1)!.stated;
  if (finalAnswer === undefined) throw new Error(`a written solution ends with its answer step: ${JSON.stringify(steps.at(-1))}`);
  const firstErrorStep = steps.findIndex((step) => step.verdict !== 'correct');
  const clean = firstErrorStep === -1 ? [] : writeCleanSolution(context);
  return {
    id,
    problem: problem.text,
    steps: steps.map((step) => step.text),
    verdicts: steps.map((step) => step.verdict),
    firstErrorStep,
    errorKind,
    answer,
    finalAnswer,
    finalAnswerCorrect: finalAnswer === answer,
    expectedStep: firstErrorStep === -1 ? null : (clean[firstErrorStep]?.text ?? null),
  };
}

/** Kinds this problem can take: an unneeded step needs a distractor. */
function kindsFor(problem: BuiltProblem, kinds: readonly ErrorKind[]): ErrorKind[] {
  return kinds.filter((kind) => kind !== 'unneeded-step' || problem.structure.distractors.length > 0);
}

/** Tries the kinds (in random order) at their positions (in random order); the first that fits. */
function injectAny(random: Random, context: SolutionContext, kinds: readonly ErrorKind[], options: ResolvedOrganismOptions) {
  for (const kind of random.shuffled(kinds)) {
    for (const position of random.shuffled(injectionPositions(context, kind))) {
      const steps = injectError(context, kind, position, random, options.operations);
      if (steps !== null) return { kind, position, steps };
    }
  }
  return null;
}

function generateItem(options: ResolvedOrganismOptions, index: number): OrganismItem {
  const random = createRandom(deriveSeed(options.seed, streams.items, index));
  const id = `organism-${options.seed}-${index}`;
  const operationCount = random.integer(options.steps[0], options.steps[1]) - 1;
  const correct = random.chance(options.correctFraction);
  for (let attempt = 0; attempt < problemAttempts; attempt++) {
    const problem = buildProblem(random, operationCount, options);
    const context = contextOf(problem, options);
    if (correct) return toItem(id, problem, context, writeCleanSolution(context), null);
    const injected = injectAny(random, context, kindsFor(problem, options.errorKinds), options);
    if (injected !== null) return toItem(id, problem, context, injected.steps, injected.kind);
  }
  throw new InvalidInputError(`no problem of ${operationCount + 1} steps could take an error of kinds ${options.errorKinds.join(', ')}`, {
    location: 'organism options',
  });
}

function generatePair(options: ResolvedOrganismOptions, kinds: readonly ErrorKind[], index: number): MatchedPair {
  const random = createRandom(deriveSeed(options.seed, streams.pairs, index));
  const id = `organism-${options.seed}-pair-${index}`;
  const operationCount = random.integer(options.steps[0], options.steps[1]) - 1;
  for (let attempt = 0; attempt < problemAttempts; attempt++) {
    const problem = buildProblem(random, operationCount, options);
    const context = contextOf(problem, options);
    const injected = injectAny(random, context, kindsFor(problem, kinds), options);
    if (injected === null) continue;
    return {
      id,
      problem: problem.text,
      errorKind: injected.kind,
      step: injected.position,
      clean: toItem(`${id}-clean`, problem, context, writeCleanSolution(context), null),
      flawed: toItem(`${id}-flawed`, problem, context, injected.steps, injected.kind),
    };
  }
  throw new InvalidInputError(`no problem of ${operationCount + 1} steps could take an error of kinds ${kinds.join(', ')}`, { location: 'organism options' });
}
