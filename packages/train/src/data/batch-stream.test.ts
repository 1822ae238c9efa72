import { createByteBpeTokenizer, createRandomDecoder, ProcessRM, recipePresets } from '@reward-lens/core';
import { createTinyBackend } from '@reward-lens/backend-tiny';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parityRecords } from '../../test/support/parity-task.js';
import { BatchStream } from './batch-stream.js';
import { recordsSource, streamSource } from './record-source.js';

const prm = ProcessRM.fromBackend(createTinyBackend(createRandomDecoder({ seed: 1 })), createByteBpeTokenizer(), {
  recipe: recipePresets['trl-token-classification']!,
});

describe('BatchStream', () => {
  const records = parityRecords(40, 5);

  it('packs records up to the token budget, and a resumed stream continues with the same batches', () => {
    fc.assert(
      fc.property(fc.integer({ min: 20, max: 300 }), fc.integer({ min: 0, max: 6 }), (budget, cut) => {
        const source = recordsSource(records, { seed: 7 });
        const whole = new BatchStream(source, 0, prm, budget, {});
        const batches = Array.from({ length: 10 }, () => whole.next()!);
        for (const batch of batches) {
          if (batch.examples.length > 1) expect(batch.tokens).toBeLessThanOrEqual(budget);
          expect(batch.tokens).toBe(batch.examples.reduce((sum, example) => sum + example.inputIds.length, 0));
        }
        const resumed = new BatchStream(source, batches[cut]!.cursorAfter, prm, budget, {});
        for (const batch of batches.slice(cut + 1)) {
          expect(resumed.next()!.examples.map((example) => example.record.id)).toEqual(batch.examples.map((example) => example.record.id));
        }
      }),
      { numRuns: 20 },
    );
  });

  it('reshuffles each epoch, the same way for the same seed', () => {
    const order = (seed: number) => {
      const iterator = recordsSource(records, { seed }).from(0);
      return Array.from({ length: 80 }, () => iterator.next().value!.id);
    };
    const first = order(1);
    expect(order(1)).toEqual(first);
    expect(order(2)).not.toEqual(first);
    expect(new Set(first.slice(0, 40)).size).toBe(40);
    expect(first.slice(40)).not.toEqual(first.slice(0, 40));
  });

  it('skips records it cannot use and says why; a finite stream ends', () => {
    const source = streamSource(() => [records[0]!, { problem: 'P', steps: ['a'], stepLabels: [Number.NaN] }, records[1]!], 'three records');
    const stream = new BatchStream(source, 0, prm, 10_000, {});
    const batch = stream.next()!;
    expect(batch.examples).toHaveLength(2);
    expect(batch.skipped).toEqual(['record 1: no step has a label']);
    expect(batch.cursorAfter).toBe(3);
    expect(stream.next()).toBeUndefined();
  });
});
