import { expect } from 'vitest';

/** Step scores of two backends agree to `tolerance` (float32 kernels differ in their last bits). */
export function expectScoresClose(actual: readonly (number | null)[], expected: readonly (number | null)[], tolerance = 1e-4): void {
  expect(actual).toHaveLength(expected.length);
  for (const [index, score] of actual.entries()) {
    const other = expected[index];
    if (score === null || other === null || other === undefined) {
      expect(score, `step ${index + 1}`).toBe(other);
      continue;
    }
    expect(Math.abs(score - other), `step ${index + 1}: ${score} vs ${other}`).toBeLessThanOrEqual(tolerance);
  }
}
