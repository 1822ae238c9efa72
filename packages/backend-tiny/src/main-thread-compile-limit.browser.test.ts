import '@reward-lens/backend-tiny/register';
import { createRandomDecoder } from '@reward-lens/spec';
import { ProcessRM } from '@reward-lens/core';
import { describe, expect, it } from 'vitest';
import { createTinyBackend, createTinyBackendAsync } from './create-tiny-backend.js';

// Chromium up to 114 refused `new WebAssembly.Module` / `new WebAssembly.Instance` above 4 KB on a
// page's main thread (since 115 the limit is 8 MB, far above the ~7 KB kernel module). This page
// puts the old limit back, in its own realm (each test file runs in its own frame), to check
// that the synchronous path says why it fell back and the asynchronous one is not affected.
const wireBytesLimit = 4096;
const sizeOf = (bytes: unknown) => (ArrayBuffer.isView(bytes) || bytes instanceof ArrayBuffer ? bytes.byteLength : 0);
const refusingAbove = <Constructor extends object>(target: Constructor, refuse: (args: unknown[]) => string | null) =>
  new Proxy(target, {
    construct(target, args, newTarget) {
      const refusal = refuse(args);
      if (refusal !== null) throw new RangeError(refusal);
      return Reflect.construct(target as new (...args: unknown[]) => object, args, newTarget);
    },
  });
const moduleSizes = new WeakMap<WebAssembly.Module, number>();
const compileAsynchronously = WebAssembly.compile;
Object.defineProperty(WebAssembly, 'compile', {
  value: async (bytes: BufferSource) => {
    const module = await compileAsynchronously(bytes);
    moduleSizes.set(module, sizeOf(bytes));
    return module;
  },
});
Object.defineProperty(WebAssembly, 'Module', {
  value: refusingAbove(WebAssembly.Module, ([bytes]) =>
    sizeOf(bytes) > wireBytesLimit
      ? 'WebAssembly.Compile is disallowed on the main thread, if the buffer size is larger than 4KB. Use WebAssembly.compile, or compile on a worker thread.'
      : null,
  ),
});
Object.defineProperty(WebAssembly, 'Instance', {
  value: refusingAbove(WebAssembly.Instance, ([module]) =>
    (moduleSizes.get(module as WebAssembly.Module) ?? 0) > wireBytesLimit
      ? 'WebAssembly.Instance is disallowed on the main thread, if the buffer size is larger than 4KB. Use WebAssembly.instantiate.'
      : null,
  ),
});

describe('where synchronous compilation is refused on the main thread (Chromium up to 114)', () => {
  const model = createRandomDecoder({ seed: 0 });

  it('createTinyBackend falls back to the scalar kernels under auto and says why', () => {
    expect(createTinyBackend(model).info.description).toMatch(
      / kernels=scalar \(wasm-simd: the kernel module did not compile: WebAssembly\.Compile is disallowed on the main thread.*\)$/,
    );
    expect(() => createTinyBackend(model, { kernels: 'wasm-simd' })).toThrow(/disallowed on the main thread/);
  });

  it('createTinyBackendAsync and ProcessRM.fromTiny still run the SIMD kernels', async () => {
    expect((await createTinyBackendAsync(model)).info.description).toMatch(/ kernels=wasm-simd$/);
    expect((await ProcessRM.fromTiny({ seed: 0 })).backend.info.description).toMatch(/ kernels=wasm-simd$/);
  });
});
