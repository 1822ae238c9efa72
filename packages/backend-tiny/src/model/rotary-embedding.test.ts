import { createRandomDecoder, defineDecoderConfig, tinyDecoderConfig } from '@reward-lens/spec';
import { describe, expect, it } from 'vitest';
import { createTinyBackend } from '../create-tiny-backend.js';
import { batchRequest, range } from '../../test/support/requests.js';
import { tokenIds } from '../../test/support/test-models.js';
import { createRotaryTables, ensureRotaryCapacity } from './rotary-embedding.js';

describe('rotary tables', () => {
  it('grow on demand and equal tables computed up front, row for row', () => {
    const grown = createRotaryTables(16, 5000, 10_000);
    expect(grown.capacity).toBe(256);
    ensureRotaryCapacity(grown, 3000);
    expect(grown.capacity).toBe(3000);
    ensureRotaryCapacity(grown, 4000);
    expect(grown.capacity).toBe(5000);
    const upFront = createRotaryTables(16, 5000, 10_000);
    ensureRotaryCapacity(upFront, 5000);
    expect(grown.cos).toEqual(upFront.cos);
    expect(grown.sin).toEqual(upFront.sin);
    expect(grown.cos[4999 * 8 + 3]).toBeCloseTo(Math.cos(4999 * 10_000 ** (-6 / 16)), 6);
  });

  it('cost nothing for a huge declared max_position_embeddings until such positions are scored', async () => {
    for (const maxPositions of [1e8, 1e12]) {
      const config = defineDecoderConfig({ ...tinyDecoderConfig, maxPositions });
      const started = performance.now();
      const backend = createTinyBackend(createRandomDecoder({ seed: 1, config }));
      const ids = tokenIds(9, config.vocabSize);
      const result = await backend.doForward(batchRequest([ids], () => [{ kind: 'head', head: 'value', positions: [range(9)] }]));
      expect(result.reads[0]!.values[0]).toHaveLength(9);
      expect(backend.info.maxPositions).toBe(maxPositions);
      expect(performance.now() - started).toBeLessThan(10_000);
    }
  });
});
