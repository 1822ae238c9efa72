import { BackendResolutionError } from '@reward-lens/core/internal';
import { describe, expect, it } from 'vitest';
import { createKernels, selectKernels, type KernelChoice } from './kernel-choice.js';
import { scalarKernels } from './kernel-set.js';

describe('selectKernels', () => {
  const noSimd = 'no WebAssembly SIMD on this platform';
  it.each<[KernelChoice, string | null, ReturnType<typeof selectKernels>]>([
    ['auto', null, { kernels: 'wasm-simd' }],
    ['auto', noSimd, { kernels: 'scalar', note: `wasm-simd: ${noSimd}` }],
    ['wasm-simd', null, { kernels: 'wasm-simd' }],
    ['wasm-simd', noSimd, { kernels: null, reason: noSimd }],
    ['scalar', null, { kernels: 'scalar' }],
    ['scalar', noSimd, { kernels: 'scalar' }],
  ])('%s where WebAssembly SIMD is unavailable because: %s', (choice, wasmSimdUnavailable, expected) => {
    expect(selectKernels(choice, { wasmSimdUnavailable })).toEqual(expected);
  });
});

describe('createKernels', () => {
  const weights = [new Float32Array(1000), new Float32Array(300_000)];

  it('says when auto fell back, and refuses an explicit choice the platform lacks', () => {
    expect(createKernels('auto', weights, { platform: { wasmSimdUnavailable: 'no WebAssembly SIMD on this platform' } })).toEqual({
      kernels: scalarKernels,
      description: 'scalar (wasm-simd: no WebAssembly SIMD on this platform)',
    });
    expect(() => createKernels('wasm-simd', weights, { platform: { wasmSimdUnavailable: 'no WebAssembly SIMD on this platform' } })).toThrow(BackendResolutionError);
  });

  it('falls back under auto when the weights do not fit in WebAssembly memory, and refuses otherwise', () => {
    const small = { maximumWasmBytes: 1 << 20 };
    const fallback = createKernels('auto', weights, small);
    expect(fallback.kernels).toBe(scalarKernels);
    expect(fallback.description).toMatch(/^scalar \(wasm-simd: the weights do not fit in WebAssembly memory \(cannot grow WebAssembly memory to 1\.1 MiB\)\)$/);
    expect(() => createKernels('wasm-simd', weights, small)).toThrow(/do not fit in WebAssembly memory/);
    expect(createKernels('auto', weights, { maximumWasmBytes: 2 << 20 }).description).toBe('wasm-simd');
  });

  it('gives every backend its own WebAssembly kernels (their memory holds its weights)', () => {
    const first = createKernels('wasm-simd', weights);
    expect(first.description).toBe('wasm-simd');
    expect(first.kernels).not.toBe(createKernels('wasm-simd', weights).kernels);
    expect(createKernels('scalar', weights).kernels).toBe(scalarKernels);
  });
});
