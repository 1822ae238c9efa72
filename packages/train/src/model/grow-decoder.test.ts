import { createRandomDecoder, tinyDecoderConfig } from '@reward-lens/core';
import { createTinyBackend } from '@reward-lens/backend-tiny';
import { describe, expect, it } from 'vitest';
import { growDecoder, grownLayerSources } from './grow-decoder.js';

describe('growDecoder', () => {
  it('spreads the new blocks evenly among the old', () => {
    expect(grownLayerSources(4, 8)).toEqual([0, -1, 1, -1, 2, -1, 3, -1]);
    expect(grownLayerSources(4, 6)).toEqual([0, -1, 1, 2, -1, 3]);
    expect(grownLayerSources(2, 2)).toEqual([0, 1]);
  });

  it('computes exactly what the smaller model computes, and refuses to shrink', async () => {
    const small = createRandomDecoder({ seed: 4, config: tinyDecoderConfig });
    const grown = growDecoder(small, tinyDecoderConfig.numLayers * 2, 1);
    expect(grown.config.numLayers).toBe(tinyDecoderConfig.numLayers * 2);
    const request = {
      batchSize: 1,
      sequenceLength: 40,
      inputIds: Int32Array.from({ length: 40 }, (_, index) => (index * 7) % 300),
      attentionMask: new Uint8Array(40).fill(1),
      reads: [{ kind: 'head' as const, head: 'value', positions: [Array.from({ length: 40 }, (_, index) => index)] }],
    };
    const before = (await createTinyBackend(small, { threads: 1 }).doForward(request)).reads[0]!.values[0]!;
    const after = (await createTinyBackend(grown, { threads: 1 }).doForward(request)).reads[0]!.values[0]!;
    // The new blocks add exact zeros to the residual stream.
    expect([...after]).toEqual([...before]);
    expect(() => growDecoder(small, 1, 0)).toThrow(/more layers/);
  });
});
