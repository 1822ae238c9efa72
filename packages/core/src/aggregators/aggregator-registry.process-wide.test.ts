import { twoModuleCopies } from '@reward-lens/test-data/module-copies';
import { describe, expect, it } from 'vitest';

// Two evaluations of the module stand for two copies of core in one process.

describe('the aggregator registry is process-wide', () => {
  it('an aggregator registered through one copy is found by another', async () => {
    const [first, second] = await twoModuleCopies(() => import('./aggregator-registry.js'));
    const remove = first.registerAggregator('copy-test-sum', (scores) => Array.from(scores).reduce((total, score) => total + score, 0));
    try {
      expect(second.aggregate([0.25, 0.5], 'copy-test-sum')).toBe(0.75);
    } finally {
      remove();
    }
    expect(second.aggregatorNames()).not.toContain('copy-test-sum');
  });
});
