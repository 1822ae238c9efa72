import { expect } from 'vitest';

/** Element-wise |a - b| <= tolerance * max(1, |b|), naming the first element that differs. */
export function expectClose(actual: ArrayLike<number>, expected: ArrayLike<number>, tolerance: number, label: string): void {
  expect(actual.length, `${label}: length`).toBe(expected.length);
  for (let index = 0; index < expected.length; index++) {
    const difference = Math.abs(actual[index]! - expected[index]!);
    if (!(difference <= tolerance * Math.max(1, Math.abs(expected[index]!)))) {
      expect.fail(`${label}: element ${index} is ${actual[index]}, expected ${expected[index]} (tolerance ${tolerance})`);
    }
  }
}
