import { createRandomDecoder } from '@reward-lens/spec';
import { describe, expect, it } from 'vitest';
import { createTinyBackendAsync } from './create-tiny-backend.js';

// A cross-origin isolated page: Web Workers over one shared WebAssembly memory, the same bits as one thread.
describe('backend-tiny on a cross-origin isolated page', () => {
  it('splits a pass across Web Workers and gives the one-thread scores bit for bit', async () => {
    expect(globalThis.crossOriginIsolated).toBe(true);
    const model = createRandomDecoder({ seed: 2 });
    const one = await createTinyBackendAsync(model, { threads: 1 });
    const two = await createTinyBackendAsync(model, { threads: 2, sliceTokens: 1 });
    expect(two.info.description).toMatch(/ threads=2 kernels=wasm-simd$/);
    const length = 150;
    const request = {
      batchSize: 2,
      sequenceLength: length,
      inputIds: Int32Array.from({ length: 2 * length }, (_, index) => (index * 13) % 500),
      attentionMask: new Uint8Array(2 * length).fill(1),
      reads: [{ kind: 'head' as const, head: 'value', positions: [Array.from({ length }, (_, index) => index), [0, length - 1]] }],
    };
    const expected = (await one.doForward(request)).reads[0]!.values;
    const actual = (await two.doForward(request)).reads[0]!.values;
    actual.forEach((values, row) => expect([...new Uint32Array(values.buffer)]).toEqual([...new Uint32Array(expected[row]!.buffer)]));
    await one.dispose();
    await two.dispose();
  });
});
