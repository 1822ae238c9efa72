import type { Noun } from './lexicon.js';
import { applyOperation, type Operation } from './operations.js';
import type { ProblemOperation, ProblemStructure } from './problem.js';
import { type LeadId, operationTemplate } from './problem-grammar.js';
import { plainLeads, renderAnswer, renderComputation } from './step-grammar.js';
import type { StepVerdict } from './verify-solution.js';

/** A problem ready to be solved in writing: its structure, true quantities and phrasing. */
export interface SolutionContext {
  readonly structure: ProblemStructure;
  /** The true quantity after each operation (`truth[0]` is the start). */
  readonly truth: readonly number[];
  /** How the step for each operation is phrased. */
  readonly leads: readonly LeadId[];
  /** Quantities written stay within [1, ceiling]. */
  readonly ceiling: number;
}

/** Where a solution being written stands: operations moved past, and the running quantity it has. */
export interface WriterState {
  readonly position: number;
  readonly value: number;
}

/** A step with the verdict it was written to have. */
export interface WrittenStep {
  readonly text: string;
  readonly verdict: StepVerdict;
  /** For an answer step, the number it states. */
  readonly stated?: number;
}

export interface Written {
  readonly step: WrittenStep;
  readonly state: WriterState;
}

export function operationCount(context: SolutionContext): number {
  return context.structure.operations.length;
}

/** The noun of the running quantity at this point of the solution. */
export function runningNoun(context: SolutionContext, position: number): Noun {
  const { operations, start } = context.structure;
  return position < operations.length ? operations[position]!.before : (operations.at(-1)?.after ?? start.noun);
}

/** The noun a step gives its right operand: the thing the sentence's number counts. */
function rightNounOf(operation: ProblemOperation): Noun {
  const template = operationTemplate(operation.template);
  return typeof template.after === 'object' ? operation.after : operation.before;
}

function inRange(context: SolutionContext, value: number | null): value is number {
  return value !== null && value >= 1 && value <= context.ceiling;
}

/**
 * True when correct steps from `position` with running quantity `value` stay exact and in range
 * up to operation `until` (exclusive): a wrong quantity must leave the rest of the solution writable.
 */
export function tailFeasible(context: SolutionContext, position: number, value: number, until = operationCount(context)): boolean {
  let current: number | null = value;
  for (let index = position; index < until; index++) {
    const operation: ProblemOperation = context.structure.operations[index]!;
    current = applyOperation(operation.operation, current, operation.operand);
    if (!inRange(context, current)) return false;
  }
  return true;
}

function computation(
  operation: ProblemOperation,
  lead: LeadId,
  left: number,
  symbol: Operation,
  right: number,
  result: number,
  leftNoun: Noun,
  rightNoun = rightNounOf(operation),
): string {
  return renderComputation({ lead, left, operation: symbol, right, result, leftNoun, rightNoun, resultNoun: operation.after });
}

/** The step the problem calls for next, done right; null when its result is not a whole number. */
export function writeCorrect(context: SolutionContext, state: WriterState): Written | null {
  const operation = context.structure.operations[state.position]!;
  const result = applyOperation(operation.operation, state.value, operation.operand);
  if (result === null) return null;
  const text = computation(operation, context.leads[state.position]!, state.value, operation.operation, operation.operand, result, operation.before);
  return { step: { text, verdict: 'correct' }, state: { position: state.position + 1, value: result } };
}

/** The next operation on the right quantities, with another result. */
export function writeWrongResult(context: SolutionContext, state: WriterState, result: number): Written {
  const operation = context.structure.operations[state.position]!;
  const text = computation(operation, context.leads[state.position]!, state.value, operation.operation, operation.operand, result, operation.before);
  return { step: { text, verdict: 'wrong-result' }, state: { position: state.position + 1, value: result } };
}

/** The next operation with one operand misread (`left`: the running quantity; `right`: the problem's number). */
export function writeWrongCopy(context: SolutionContext, state: WriterState, side: 'left' | 'right', misread: number): Written | null {
  const operation = context.structure.operations[state.position]!;
  const left = side === 'left' ? misread : state.value;
  const right = side === 'right' ? misread : operation.operand;
  const result = applyOperation(operation.operation, left, right);
  if (result === null) return null;
  const text = computation(operation, context.leads[state.position]!, left, operation.operation, right, result, operation.before);
  return { step: { text, verdict: 'wrong-copy' }, state: { position: state.position + 1, value: result } };
}

/** The right operands under another operation. */
export function writeWrongOperation(context: SolutionContext, state: WriterState, symbol: Operation): Written | null {
  const operation = context.structure.operations[state.position]!;
  const result = applyOperation(symbol, state.value, operation.operand);
  if (result === null) return null;
  const text = computation(operation, plainLeads[symbol], state.value, symbol, operation.operand, result, operation.before);
  return { step: { text, verdict: 'wrong-operation' }, state: { position: state.position + 1, value: result } };
}

/** Leaves out the next operation: does the one after it on the running quantity (or answers, when it was the last). */
export function writeSkip(context: SolutionContext, state: WriterState): Written | null {
  const next = state.position + 1;
  if (next >= operationCount(context)) {
    return { step: { text: renderAnswer(state.value), verdict: 'skipped-step', stated: state.value }, state: { position: next, value: state.value } };
  }
  const operation = context.structure.operations[next]!;
  const result = applyOperation(operation.operation, state.value, operation.operand);
  if (result === null) return null;
  const noun = runningNoun(context, state.position);
  const text = computation(operation, context.leads[next]!, state.value, operation.operation, operation.operand, result, noun);
  return { step: { text, verdict: 'skipped-step' }, state: { position: next + 1, value: result } };
}

/** A step the answer does not need: the running quantity combined with a distractor. The state does not move. */
export function writeUnneeded(context: SolutionContext, state: WriterState, distractor: number, symbol: Operation): Written | null {
  const found = context.structure.distractors.find((candidate) => candidate.value === distractor);
  const result = applyOperation(symbol, state.value, distractor);
  if (found === undefined || result === null) return null;
  const noun = runningNoun(context, state.position);
  const text = renderComputation({
    lead: plainLeads[symbol],
    left: state.value,
    operation: symbol,
    right: distractor,
    result,
    leftNoun: noun,
    rightNoun: found.noun,
    resultNoun: noun,
  });
  return { step: { text, verdict: 'unneeded-step' }, state };
}

/** The answer step; its verdict is `correct` when every operation is done and it states the running quantity. */
export function writeAnswer(context: SolutionContext, state: WriterState, value = state.value): WrittenStep {
  const verdict: StepVerdict = state.position < operationCount(context) ? 'skipped-step' : value === state.value ? 'correct' : 'wrong-copy';
  return { text: renderAnswer(value), verdict, stated: value };
}

/**
 * Plausible misreadings of a number, nearest first: off by one or two or ten, a digit changed,
 * two digits swapped. Distinct, at least 1, never the number itself.
 */
export function nearMisses(value: number): number[] {
  const candidates = [value + 1, value - 1, value + 2, value - 2, value + 10, value - 10];
  const digits = String(value);
  if (digits.length >= 2) {
    candidates.push(Number(digits.slice(0, -2) + digits.at(-1)! + digits.at(-2)!));
    for (let place = 0; place < digits.length; place++) {
      for (const shift of [1, 9]) {
        const digit = (Number(digits[place]) + shift) % 10;
        if (place === 0 && digit === 0) continue;
        candidates.push(Number(digits.slice(0, place) + digit + digits.slice(place + 1)));
      }
    }
  }
  return [...new Set(candidates)].filter((candidate) => candidate >= 1 && candidate !== value);
}
