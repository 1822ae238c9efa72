import { createRandomDecoder } from '@reward-lens/spec';
import { describe, expect, it } from 'vitest';
import { createTinyBackendAsync } from './create-tiny-backend.js';

// A page served without cross-origin isolation has no SharedArrayBuffer: one thread, and the description says why.
describe('backend-tiny on a page that is not cross-origin isolated', () => {
  it('runs on one thread, and says why when more were asked for', async () => {
    expect(globalThis.crossOriginIsolated).toBe(false);
    const model = createRandomDecoder({ seed: 2 });
    const byDefault = await createTinyBackendAsync(model);
    expect(byDefault.info.description).toMatch(
      / threads=1 \(one thread: the page is not cross-origin isolated, so workers cannot share memory .*\) kernels=wasm-simd$/,
    );
    const asked = await createTinyBackendAsync(model, { threads: 4 });
    expect(asked.info.description).toMatch(/ threads=1 \(one thread, not 4: the page is not cross-origin isolated/);
    await byDefault.dispose();
    await asked.dispose();
  });
});
