import { InvalidInputError } from '@reward-lens/core';
import { containerNouns, itemNouns, moneyNoun, type Noun, people } from './lexicon.js';
import { applyOperation, type Operation } from './operations.js';
import type { ResolvedOrganismOptions } from './options.js';
import { type ProblemDistractor, type ProblemOperation, type ProblemPhrasing, type ProblemStructure, renderProblem } from './problem.js';
import { distractorTemplates, type LeadId, operationTemplates, questionTemplates, startTemplates, unitKindOf } from './problem-grammar.js';
import type { Random } from './random.js';

/** A generated problem: what it means, how it is phrased, its text, and how its steps are phrased. */
export interface BuiltProblem {
  readonly structure: ProblemStructure;
  readonly phrasing: ProblemPhrasing;
  readonly text: string;
  readonly leads: readonly LeadId[];
}

interface Chain {
  start: number;
  steps: { operation: Operation; operand: number }[];
}

/** Nodes the chain search may visit, and operands it tries per operation at each point. */
const searchBudget = 200_000;
const operandsTried = 4;

/** The numbers an operation may take on `value` so that the result is whole and within [1, maxNumber]. */
function operandCandidates(operation: Operation, value: number, maxNumber: number): number[] {
  const range = (from: number, to: number) => Array.from({ length: Math.max(0, to - from + 1) }, (_, index) => from + index);
  switch (operation) {
    case '+':
      return range(1, maxNumber - value);
    case '−':
      return range(1, value - 1);
    case '×':
      return range(2, Math.floor(maxNumber / value));
    case '÷':
      // Results of at least 2: "packs 12 pencils into boxes of 12" reads oddly.
      return range(2, Math.floor(value / 2)).filter((divisor) => value % divisor === 0);
  }
}

/** Per number 1..maxNumber, its count of divisors squared (a sieve; kept per maxNumber). */
const startWeights = new Map<number, { weights: number[]; total: number }>();

function divisorWeights(maxNumber: number): { weights: number[]; total: number } {
  let cached = startWeights.get(maxNumber);
  if (cached === undefined) {
    const counts = new Array<number>(maxNumber + 1).fill(0);
    for (let divisor = 1; divisor <= maxNumber; divisor++) for (let multiple = divisor; multiple <= maxNumber; multiple += divisor) counts[multiple]!++;
    const weights = counts.slice(1).map((count) => count * count);
    cached = { weights, total: weights.reduce((sum, weight) => sum + weight, 0) };
    startWeights.set(maxNumber, cached);
  }
  return cached;
}

function pickStart(random: Random, options: ResolvedOrganismOptions): number {
  // Divisions need divisible quantities: half the time, start from a number with many divisors.
  if (options.operations.includes('÷') && random.chance(0.5)) {
    const { weights, total } = divisorWeights(options.maxNumber);
    let draw = random.next() * total;
    for (const [index, weight] of weights.entries()) {
      draw -= weight;
      if (draw < 0) return index + 1;
    }
  }
  return random.integer(1, options.maxNumber);
}

/**
 * A chain of `count` operations whose every quantity is whole and within [1, maxNumber]: a
 * randomised depth-first search (the first path it tries is a plain random walk; it backs up
 * only where a walk gets stuck, as chains of divisions alone do). Neighbouring operations take
 * different numbers where they can, so that leaving one out shows.
 */
function buildChain(random: Random, count: number, options: ResolvedOrganismOptions): Chain {
  let budget = searchBudget;
  const extend = (value: number, previous: number | undefined, remaining: number): Chain['steps'] | null => {
    if (remaining === 0) return [];
    const choices = random.shuffled(options.operations);
    for (const operation of choices) {
      const all = operandCandidates(operation, value, options.maxNumber);
      const others = random.shuffled(all.filter((operand) => operand !== previous)).slice(0, operandsTried);
      for (const operand of [...others, ...all.filter((operand) => operand === previous)]) {
        if (--budget < 0) return null;
        const rest = extend(applyOperation(operation, value, operand)!, operand, remaining - 1);
        if (rest !== null) return [{ operation, operand }, ...rest];
      }
    }
    return null;
  };
  while (budget > 0) {
    const start = pickStart(random, options);
    const steps = extend(start, undefined, count);
    if (steps !== null) return { start, steps };
  }
  throw new InvalidInputError(
    `could not build a ${count}-operation chain with operations ${options.operations.join(' ')} and numbers up to ${options.maxNumber}; allow more operations or larger numbers`,
    { location: 'organism options' },
  );
}

/** A problem of `operationCount` operations, with its story, sentences and step phrasings drawn from `random`. */
export function buildProblem(random: Random, operationCount: number, options: ResolvedOrganismOptions): BuiltProblem {
  const chain = buildChain(random, operationCount, options);
  const [person, other] = random.shuffled(people) as [(typeof people)[number], (typeof people)[number]];
  const item = random.pick(itemNouns);
  const container = random.pick(containerNouns);

  const startTemplate = random.pick(startTemplates);
  const startKind = random.pick(startTemplate.kinds);
  const startNoun = startKind === 'containers' ? container : item;

  const operations: ProblemOperation[] = [];
  const leads: LeadId[] = [];
  let current: Noun = startNoun;
  for (const step of chain.steps) {
    const kind = unitKindOf(current);
    const template = random.pick(operationTemplates.filter((candidate) => candidate.operation === step.operation && candidate.from.includes(kind)));
    const after = template.after === 'same' ? current : template.after === 'money' ? moneyNoun : template.after.slot === 'I' ? item : container;
    operations.push({ operation: step.operation, operand: step.operand, template: template.id, before: current, after });
    leads.push(random.pick(template.leads));
    current = after;
  }

  const distractors: ProblemDistractor[] = [];
  const placements: { template: string; after: number }[] = [];
  if (random.chance(options.distractorProbability)) {
    const used = new Set([chain.start, ...chain.steps.map((step) => step.operand)]);
    const values = Array.from({ length: options.maxNumber - 1 }, (_, index) => index + 2).filter((value) => !used.has(value));
    if (values.length > 0) {
      distractors.push({ value: random.pick(values), noun: random.pick(itemNouns.filter((noun) => noun !== item)) });
      placements.push({ template: random.pick(distractorTemplates).id, after: random.integer(0, operationCount) });
    }
  }

  const structure: ProblemStructure = { start: { value: chain.start, noun: startNoun }, operations, distractors };
  const phrasing: ProblemPhrasing = {
    person,
    other,
    startTemplate: startTemplate.id,
    startItem: item,
    questionTemplate: random.pick(questionTemplates).id,
    distractors: placements,
  };
  return { structure, phrasing, text: renderProblem(structure, phrasing), leads };
}
