import { InvalidInputError } from '@reward-lens/core';
import { moneyNoun, type Noun, type Person } from './lexicon.js';
import { applyOperation, type Operation } from './operations.js';
import { distractorTemplates, operationTemplate, operationTemplates, questionTemplates, startTemplates } from './problem-grammar.js';

/** One sentence of the problem that the answer needs: `operation operand` applied to the running quantity. */
export interface ProblemOperation {
  readonly operation: Operation;
  readonly operand: number;
  /** The sentence's template id (`add-buy`, `mul-hold`, ...). */
  readonly template: string;
  /** What the running quantity counts before and after this sentence. */
  readonly before: Noun;
  readonly after: Noun;
}

/** A number in the problem that the answer does not need. */
export interface ProblemDistractor {
  readonly value: number;
  readonly noun: Noun;
}

/**
 * What a problem means, as the verifier reads it: a starting quantity, the operations its
 * sentences apply to it in order (a chain: each operation takes the quantity so far and one
 * number of the problem), and the distractors.
 */
export interface ProblemStructure {
  readonly start: { readonly value: number; readonly noun: Noun };
  readonly operations: readonly ProblemOperation[];
  readonly distractors: readonly ProblemDistractor[];
}

/** How the generator phrases a structure (and what `renderProblem` needs besides it). */
export interface ProblemPhrasing {
  readonly person: Person;
  readonly other: Person;
  readonly startTemplate: string;
  /** The item a `buys ... of {I}` start names. */
  readonly startItem: Noun;
  readonly questionTemplate: string;
  /** Per distractor: its template, and how many operation sentences come before it (0 = right after the start). */
  readonly distractors: readonly { readonly template: string; readonly after: number }[];
}

/** The quantity after each operation: `values[0]` is the start, `values[i]` after `i` operations. */
export function chainValues(structure: ProblemStructure): number[] {
  const values = [structure.start.value];
  for (const [index, step] of structure.operations.entries()) {
    const next = applyOperation(step.operation, values[index]!, step.operand);
    if (next === null) {
      throw new InvalidInputError(`${values[index]} ${step.operation} ${step.operand} is not a whole number of at least 0`, {
        location: `problem operation ${index + 1}`,
      });
    }
    values.push(next);
  }
  return values;
}

/** The problem's answer: the quantity after the last operation. */
export function answerOf(structure: ProblemStructure): number {
  return chainValues(structure).at(-1)!;
}

export function renderProblem(structure: ProblemStructure, phrasing: ProblemPhrasing): string {
  const people = { N: phrasing.person, O: phrasing.other };
  const start = startTemplates.find((template) => template.id === phrasing.startTemplate)!;
  const sentences = [start.template.render({ numbers: { n: structure.start.value }, nouns: { U: structure.start.noun, I: phrasing.startItem }, people })];
  const distractorsAfter = (count: number) =>
    phrasing.distractors.flatMap((placement, index) => {
      if (placement.after !== count) return [];
      const distractor = structure.distractors[index]!;
      const template = distractorTemplates.find((candidate) => candidate.id === placement.template)!;
      return [template.template.render({ numbers: { n: distractor.value }, nouns: { X: distractor.noun }, people })];
    });
  sentences.push(...distractorsAfter(0));
  for (const [index, step] of structure.operations.entries()) {
    const template = operationTemplate(step.template);
    const nouns: Record<string, Noun> = { U: step.before };
    if (typeof template.after === 'object') nouns[template.after.slot] = step.after;
    sentences.push(template.template.render({ numbers: { n: step.operand }, nouns, people }));
    sentences.push(...distractorsAfter(index + 1));
  }
  const question = questionTemplates.find((template) => template.id === phrasing.questionTemplate)!;
  const last = structure.operations.at(-1)?.after ?? structure.start.noun;
  sentences.push(question.template.render({ numbers: {}, nouns: { U: last }, people }));
  return sentences.join(' ');
}

/**
 * Reads a problem written in the organism's language (see the package README for the grammar).
 * Text outside the language is an `InvalidInputError` naming the sentence.
 */
export function parseProblem(text: string): ProblemStructure {
  const sentences = text.trim().split(/(?<=[.?])\s+/);
  const fail = (index: number, why: string) =>
    new InvalidInputError(`${why}: ${JSON.stringify(sentences[index])}`, { location: `problem sentence ${index + 1}` });
  if (sentences.length < 3) throw new InvalidInputError('a problem has a start, at least one operation and a question', { location: 'problem' });

  const first = sentences[0]!;
  let start: ProblemStructure['start'] | undefined;
  for (const candidate of startTemplates) {
    const slots = candidate.template.parse(first);
    if (slots !== null) start = { value: slots.numbers.n!, noun: slots.nouns.U! };
    if (start !== undefined) break;
  }
  if (start === undefined) throw fail(0, 'not a starting sentence of the organism');

  const last = sentences.length - 1;
  if (!questionTemplates.some((candidate) => candidate.template.parse(sentences[last]!) !== null)) throw fail(last, 'not a question of the organism');

  const operations: ProblemOperation[] = [];
  const distractors: ProblemDistractor[] = [];
  let current = start.noun;
  for (let index = 1; index < last; index++) {
    const sentence = sentences[index]!;
    const operation = readOperation(sentence, current);
    if (operation !== null) {
      operations.push(operation);
      current = operation.after;
      continue;
    }
    const distractor = distractorTemplates.map((candidate) => candidate.template.parse(sentence)).find((slots) => slots !== null);
    if (distractor != null) {
      distractors.push({ value: distractor.numbers.n!, noun: distractor.nouns.X! });
      continue;
    }
    throw fail(index, 'not an operation or a distractor of the organism');
  }
  if (operations.length === 0) throw new InvalidInputError('a problem needs at least one operation', { location: 'problem' });
  const structure = { start, operations, distractors };
  chainValues(structure);
  return structure;
}

function readOperation(sentence: string, before: Noun): ProblemOperation | null {
  for (const candidate of operationTemplates) {
    const slots = candidate.template.parse(sentence);
    if (slots === null) continue;
    const after = candidate.after === 'same' ? before : candidate.after === 'money' ? moneyNoun : slots.nouns[candidate.after.slot]!;
    return { operation: candidate.operation, operand: slots.numbers.n!, template: candidate.id, before, after };
  }
  return null;
}
