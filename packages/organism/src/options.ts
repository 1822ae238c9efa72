import { InvalidInputError } from '@reward-lens/core';
import { type Operation, operations } from './operations.js';

/**
 * The errors the generator injects. The first four make the final answer wrong; the last two
 * are flawed solutions that still reach the right answer.
 * - `wrong-result`: a step's result is not its operation's.
 * - `wrong-copy`: a step misreads an operand (the running quantity or the problem's number), or the answer step misstates the result.
 * - `wrong-operation`: a step applies another operation to the right operands.
 * - `dropped-step`: an operation is left out; the next step works on the quantity before it.
 * - `compensating`: a wrong result, then a second wrong result (or answer) that lands back on the true quantity.
 * - `unneeded-step`: an extra step combines the running quantity with a distractor; nothing later uses it.
 */
export type ErrorKind = 'wrong-result' | 'wrong-copy' | 'wrong-operation' | 'dropped-step' | 'compensating' | 'unneeded-step';

export const errorKinds: readonly ErrorKind[] = ['wrong-result', 'wrong-copy', 'wrong-operation', 'dropped-step', 'compensating', 'unneeded-step'];

/** The kinds with one injected error, which matched pairs use. */
export const singleErrorKinds: readonly ErrorKind[] = ['wrong-result', 'wrong-copy', 'wrong-operation', 'dropped-step', 'unneeded-step'];

export interface OrganismOptions {
  /** Seeds everything; item `i` of a seed is the same however many items are drawn. Default 0. */
  seed?: number;
  /** Steps of a correct solution, the answer step included: `[min, max]`, drawn uniformly, within 2–10. Default `[3, 8]`. */
  steps?: readonly [number, number];
  /** Every number in problems and solutions is at most this (at least 10). Default 100. */
  maxNumber?: number;
  /** The operations problems use (and wrong operations are drawn from). Default all four. */
  operations?: readonly Operation[];
  /** The share of items whose solution is correct. Default 0.5. */
  correctFraction?: number;
  /** The error kinds to inject, drawn uniformly among those a problem allows. Default all. */
  errorKinds?: readonly ErrorKind[];
  /** The chance that a problem has a distractor (a number the answer does not need). Default 0.3. */
  distractorProbability?: number;
}

export type ResolvedOrganismOptions = Required<OrganismOptions>;

export const defaultOrganismOptions: ResolvedOrganismOptions = {
  seed: 0,
  steps: [3, 8],
  maxNumber: 100,
  operations,
  correctFraction: 0.5,
  errorKinds,
  distractorProbability: 0.3,
};

export function resolveOrganismOptions(options: OrganismOptions = {}): ResolvedOrganismOptions {
  const resolved = { ...defaultOrganismOptions, ...dropUndefined(options) };
  const fail = (field: string, message: string) => new InvalidInputError(message, { location: `organism options: ${field}` });
  if (!Number.isInteger(resolved.seed)) throw fail('seed', `must be an integer, got ${resolved.seed}`);
  const [minimum, maximum] = resolved.steps;
  if (!Number.isInteger(minimum) || !Number.isInteger(maximum) || minimum < 2 || maximum > 10 || minimum > maximum) {
    throw fail('steps', `must be [min, max] with 2 <= min <= max <= 10, got [${minimum}, ${maximum}]`);
  }
  if (!Number.isSafeInteger(resolved.maxNumber) || resolved.maxNumber < 10)
    throw fail('maxNumber', `must be an integer of at least 10, got ${resolved.maxNumber}`);
  if (resolved.operations.length === 0 || resolved.operations.some((operation) => !operations.includes(operation))) {
    throw fail('operations', `must be a non-empty list of ${operations.join(' ')}, got ${JSON.stringify(resolved.operations)}`);
  }
  if (!(resolved.correctFraction >= 0 && resolved.correctFraction <= 1)) throw fail('correctFraction', `must be in [0, 1], got ${resolved.correctFraction}`);
  if (resolved.errorKinds.some((kind) => !errorKinds.includes(kind))) throw fail('errorKinds', `must be among ${errorKinds.join(', ')}`);
  if (resolved.errorKinds.length === 0 && resolved.correctFraction < 1) throw fail('errorKinds', 'no error kind to inject, but correctFraction < 1');
  if (!(resolved.distractorProbability >= 0 && resolved.distractorProbability <= 1)) {
    throw fail('distractorProbability', `must be in [0, 1], got ${resolved.distractorProbability}`);
  }
  if (resolved.correctFraction < 1 && resolved.distractorProbability === 0 && resolved.errorKinds.every((kind) => kind === 'unneeded-step')) {
    throw fail('errorKinds', 'unneeded-step alone needs distractors: set distractorProbability above 0');
  }
  return { ...resolved, operations: [...new Set(resolved.operations)], errorKinds: [...new Set(resolved.errorKinds)] };
}

function dropUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, entry]) => entry !== undefined)) as Partial<T>;
}
