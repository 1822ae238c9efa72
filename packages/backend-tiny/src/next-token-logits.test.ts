import { createRandomDecoder } from '@reward-lens/spec';
import { describe, expect, it } from 'vitest';
import { createTinyBackend } from './create-tiny-backend.js';
import { nextTokenLogits } from './next-token-logits.js';
import { relativeError } from '../test/support/requests.js';

describe('nextTokenLogits', () => {
  it('greedy decoding through the cache matches rescoring the whole sequence each step', async () => {
    const backend = createTinyBackend(createRandomDecoder({ seed: 5 }));
    const sequence = [3, 14, 15, 92];
    let step = await nextTokenLogits(backend, { tokens: sequence });
    for (let index = 0; index < 4; index++) {
      const fresh = await nextTokenLogits(backend, { tokens: sequence });
      expect(relativeError(step.logits, fresh.logits)).toBeLessThan(1e-5);
      fresh.cache.release();
      const next = step.logits.indexOf(Math.max(...step.logits));
      sequence.push(next);
      const previous = step.cache;
      step = await nextTokenLogits(backend, { tokens: [next], past: previous });
      previous.release();
      expect(step.cache.length).toBe(sequence.length);
      expect(step.logits).toHaveLength(backend.info.vocabSize);
    }
  });

  it('reads only the given columns', async () => {
    const backend = createTinyBackend(createRandomDecoder({ seed: 5 }));
    const all = await nextTokenLogits(backend, { tokens: [1, 2, 3] });
    const some = await nextTokenLogits(backend, { tokens: [1, 2, 3], columns: [7, 2] });
    expect([...some.logits]).toEqual([all.logits[7], all.logits[2]]);
  });
});
