import { describe, expect, it, vi } from 'vitest';

// Two evaluations of the module stand for two copies of core in one process (see spec's process-wide.test.ts).
async function twoCopies<T>(load: () => Promise<T>): Promise<[T, T]> {
  const first = await load();
  vi.resetModules();
  const second = await load();
  expect(second).not.toBe(first);
  return [first, second];
}

describe('the aggregator registry is process-wide', () => {
  it('an aggregator registered through one copy is found by another', async () => {
    const [first, second] = await twoCopies(() => import('./aggregator-registry.js'));
    const remove = first.registerAggregator('copy-test-sum', (scores) => Array.from(scores).reduce((total, score) => total + score, 0));
    try {
      expect(second.aggregate([0.25, 0.5], 'copy-test-sum')).toBe(0.75);
    } finally {
      remove();
    }
    expect(second.aggregatorNames()).not.toContain('copy-test-sum');
  });
});
