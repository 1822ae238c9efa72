import { findNoun, type Noun } from './lexicon.js';
import { operationAliases, type Operation } from './operations.js';
import type { LeadId } from './problem-grammar.js';
import { compileTemplate, type Template } from './template.js';

interface Lead {
  readonly operation: Operation;
  /** Slots: `{a}` the left operand, `{A}` its noun, `{b}` the right operand, `{B}` its noun. */
  readonly template: Template;
}

/** The words before ` is a op b = c`: each names the operation it describes. */
export const leads: Readonly<Record<LeadId, Lead>> = {
  plus: { operation: '+', template: compileTemplate('{a} {A:a} plus {b} {B:b}') },
  more: { operation: '+', template: compileTemplate('{a} {A:a} and {b} more {B:b}') },
  minus: { operation: '−', template: compileTemplate('{a} {A:a} minus {b} {B:b}') },
  less: { operation: '−', template: compileTemplate('{a} {A:a} less {b} {B:b}') },
  of: { operation: '×', template: compileTemplate('{a} {A:a} of {b} {B:b}') },
  at: { operation: '×', template: compileTemplate('{a} {A:a} at {b} dollars each') },
  times: { operation: '×', template: compileTemplate('{a} {A:a} times {b}') },
  'in-of': { operation: '÷', template: compileTemplate('{a} {A:a} in {B} of {b}') },
  split: { operation: '÷', template: compileTemplate('{a} {A:a} split into {b} groups') },
  piles: { operation: '÷', template: compileTemplate('{a} {A:a} in {b} piles') },
};

/** The plain lead of each operation, for a step that performs an operation its sentence did not call for. */
export const plainLeads: Readonly<Record<Operation, LeadId>> = { '+': 'plus', '−': 'minus', '×': 'times', '÷': 'split' };

export const answerTemplate = compileTemplate('The answer is {c}.');

/** A computation step as the organism writes it: `<lead> is <left> <op> <right> = <result> <noun>.` */
export interface ComputationPhrase {
  readonly lead: LeadId;
  readonly left: number;
  readonly operation: Operation;
  readonly right: number;
  readonly result: number;
  readonly leftNoun: Noun;
  readonly rightNoun: Noun;
  readonly resultNoun: Noun;
}

export function renderComputation(phrase: ComputationPhrase): string {
  const words = leads[phrase.lead].template.render({
    numbers: { a: phrase.left, b: phrase.right },
    nouns: { A: phrase.leftNoun, B: phrase.rightNoun },
    people: {},
  });
  const noun = phrase.result === 1 ? phrase.resultNoun.singular : phrase.resultNoun.plural;
  return `${words} is ${phrase.left} ${phrase.operation} ${phrase.right} = ${phrase.result} ${noun}.`;
}

export function renderAnswer(value: number): string {
  return answerTemplate.render({ numbers: { c: value }, nouns: {}, people: {} });
}

export type ParsedStep =
  | { readonly kind: 'answer'; readonly value: number }
  | {
      readonly kind: 'computation';
      readonly left: number;
      readonly operation: Operation;
      readonly right: number;
      readonly result: number;
      /** What the words before `is` say, when the step has them. */
      readonly lead: { readonly operation: Operation; readonly left: number; readonly right: number } | null;
    }
  | { readonly kind: 'unparseable'; readonly reason: string };

const equation = /^(?:(?<lead>.+?) is )?(?<a>\d+) ?(?<op>[+\-−×x*÷/]) ?(?<b>\d+) ?= ?(?<c>\d+)(?: (?<noun>[a-z]+))?\.?$/;
const answer = /^The answer is (?<c>\d+)\.?$/;

/**
 * Reads one step. Spaces are collapsed and the final period may be left out; everything else
 * must be in the grammar (README): an answer step, or a computation whose words, if any, are one
 * of the organism's leads and whose noun, if any, is one of its nouns.
 */
export function parseStep(text: string): ParsedStep {
  const step = text.trim().replace(/\s+/g, ' ');
  const answered = answer.exec(step)?.groups;
  if (answered !== undefined) return wholeNumbers([answered.c!]) ? { kind: 'answer', value: Number(answered.c) } : tooLarge;
  const groups = equation.exec(step)?.groups;
  if (groups === undefined) {
    return { kind: 'unparseable', reason: 'not "The answer is N." and not a computation "... is A op B = C noun."' };
  }
  if (!wholeNumbers([groups.a!, groups.b!, groups.c!])) return tooLarge;
  if (groups.noun !== undefined && findNoun(groups.noun) === undefined) {
    return { kind: 'unparseable', reason: `"${groups.noun}" is not a noun of the organism` };
  }
  let lead: { operation: Operation; left: number; right: number } | null = null;
  if (groups.lead !== undefined) {
    for (const candidate of Object.values(leads)) {
      const slots = candidate.template.parse(groups.lead);
      if (slots !== null) {
        lead = { operation: candidate.operation, left: slots.numbers.a!, right: slots.numbers.b! };
        break;
      }
    }
    if (lead === null) return { kind: 'unparseable', reason: `the words "${groups.lead}" are not a computation the organism knows` };
  }
  return {
    kind: 'computation',
    left: Number(groups.a),
    operation: operationAliases[groups.op!]!,
    right: Number(groups.b),
    result: Number(groups.c),
    lead,
  };
}

const tooLarge: ParsedStep = { kind: 'unparseable', reason: 'a number is too large to be exact' };

function wholeNumbers(texts: readonly string[]): boolean {
  return texts.every((text) => Number.isSafeInteger(Number(text)));
}
