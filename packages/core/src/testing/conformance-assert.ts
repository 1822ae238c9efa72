import { RewardLensError } from '@reward-lens/spec';

/**
 * The conformance kit's own assertions: plain throws, so that the kit runs under any test
 * framework (or none) and needs no `expect`.
 */
export class ConformanceAssertionError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'AssertionError';
  }
}

/** Fails with `message` unless `condition` holds. */
export function check(condition: unknown, message: string): asserts condition {
  if (!condition) throw new ConformanceAssertionError(message);
}

/** Strict equality for primitives; element-wise strict equality for arrays and typed arrays. */
export function checkEqual(actual: unknown, expected: unknown, label: string): void {
  const isList = (value: unknown): value is ArrayLike<unknown> => Array.isArray(value) || ArrayBuffer.isView(value);
  if (isList(actual) && isList(expected)) {
    check(actual.length === expected.length, `${label}: length ${actual.length}, expected ${expected.length}`);
    for (let index = 0; index < expected.length; index++) {
      if (!Object.is(actual[index], expected[index]) && !(isList(actual[index]) && isList(expected[index]))) {
        throw new ConformanceAssertionError(`${label}: element ${index} is ${String(actual[index])}, expected ${String(expected[index])}`);
      }
      if (isList(actual[index])) checkEqual(actual[index], expected[index], `${label}[${index}]`);
    }
    return;
  }
  check(Object.is(actual, expected), `${label}: got ${String(actual)}, expected ${String(expected)}`);
}

/** Element-wise |a - b| <= tolerance * max(1, |b|), naming the first element that differs. */
export function expectClose(actual: ArrayLike<number>, expected: ArrayLike<number>, tolerance: number, label: string): void {
  check(actual.length === expected.length, `${label}: length ${actual.length}, expected ${expected.length}`);
  for (let index = 0; index < expected.length; index++) {
    const difference = Math.abs(actual[index]! - expected[index]!);
    if (!(difference <= tolerance * Math.max(1, Math.abs(expected[index]!)))) {
      throw new ConformanceAssertionError(`${label}: element ${index} is ${actual[index]}, expected ${expected[index]} (tolerance ${tolerance})`);
    }
  }
}

/** Fails unless `value <= bound` (a NaN fails). */
export function checkAtMost(value: number, bound: number, label: string): void {
  check(value <= bound, `${label}: ${value}, expected at most ${bound}`);
}

/** Fails unless `value < bound` (a NaN fails). */
export function checkBelow(value: number, bound: number, label: string): void {
  check(value < bound, `${label}: ${value}, expected below ${bound}`);
}

/** Element-wise |a - b| <= bound, an absolute bound, naming the first element that differs. */
export function checkWithin(actual: ArrayLike<number>, expected: ArrayLike<number>, bound: number, label: string): void {
  check(actual.length === expected.length, `${label}: length ${actual.length}, expected ${expected.length}`);
  for (let index = 0; index < expected.length; index++) {
    if (!(Math.abs(actual[index]! - expected[index]!) <= bound)) {
      throw new ConformanceAssertionError(`${label}: element ${index} is ${actual[index]}, expected ${expected[index]} (within ${bound})`);
    }
  }
}

/** The largest |a - b| / max(1, |b|) over two equally long arrays. */
export function largestDifference(actual: ArrayLike<number>, expected: ArrayLike<number>): number {
  let largest = 0;
  for (let index = 0; index < expected.length; index++) {
    largest = Math.max(largest, Math.abs(actual[index]! - expected[index]!) / Math.max(1, Math.abs(expected[index]!)));
  }
  return largest;
}

/** What a rejection must carry: a reward-lens error `code`, and optionally its `capability` and a message pattern. */
export interface ExpectedRejection {
  code: string;
  capability?: string;
  message?: RegExp;
}

/** Awaits `promise` (or calls `action`) and checks that it rejects with a reward-lens error as described. */
export async function checkRejects(action: Promise<unknown> | (() => Promise<unknown>), expected: ExpectedRejection, label: string): Promise<void> {
  let error: unknown;
  let rejected = false;
  try {
    await (typeof action === 'function' ? action() : action);
  } catch (caught) {
    rejected = true;
    error = caught;
  }
  check(rejected, `${label}: expected a ${expected.code} error, but it succeeded`);
  const describe = (value: unknown) => (value instanceof Error ? `${value.name}: ${value.message}` : String(value));
  check(RewardLensError.hasCode(error, expected.code), `${label}: expected a reward-lens ${expected.code} error, got ${describe(error)}`);
  if (expected.capability !== undefined) {
    const capability = (error as { capability?: unknown }).capability;
    check(capability === expected.capability, `${label}: expected the ${expected.capability} capability to be named, got ${String(capability)}`);
  }
  if (expected.message) check(expected.message.test((error as Error).message), `${label}: "${(error as Error).message}" does not match ${expected.message}`);
}
