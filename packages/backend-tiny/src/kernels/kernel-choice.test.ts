import { BackendResolutionError } from '@reward-lens/spec';
import { describe, expect, it } from 'vitest';
import { createKernels, createKernelsAsync, selectKernels, type KernelChoice } from './kernel-choice.js';
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

// Both ways of creating kernels (synchronous and asynchronous instantiation) share everything else.
describe.each([
  ['createKernels', async (...args: Parameters<typeof createKernels>) => createKernels(...args)],
  ['createKernelsAsync', createKernelsAsync],
])('%s', (_, create) => {
  const weights = [new Float32Array(1000), new Float32Array(300_000)];
  const noSimd = { platform: { wasmSimdUnavailable: 'no WebAssembly SIMD on this platform' } };

  it('says when auto fell back, and refuses an explicit choice the platform lacks', async () => {
    expect(await create('auto', weights, noSimd)).toEqual({
      kernels: scalarKernels,
      description: 'scalar (wasm-simd: no WebAssembly SIMD on this platform)',
    });
    await expect(create('wasm-simd', weights, noSimd)).rejects.toThrow(BackendResolutionError);
  });

  it('falls back under auto when the weights do not fit in WebAssembly memory, and refuses otherwise', async () => {
    const small = { maximumWasmBytes: 1 << 20 };
    const fallback = await create('auto', weights, small);
    expect(fallback.kernels).toBe(scalarKernels);
    expect(fallback.description).toMatch(/^scalar \(wasm-simd: the weights do not fit in WebAssembly memory \(cannot grow WebAssembly memory to 1\.1 MiB\)\)$/);
    await expect(create('wasm-simd', weights, small)).rejects.toThrow(/do not fit in WebAssembly memory/);
    expect((await create('auto', weights, { maximumWasmBytes: 2 << 20 })).description).toBe('wasm-simd');
  });

  it('gives every backend its own WebAssembly kernels (their memory holds its weights)', async () => {
    const first = await create('wasm-simd', weights);
    expect(first.description).toBe('wasm-simd');
    expect(first.kernels).not.toBe((await create('wasm-simd', weights)).kernels);
    expect((await create('scalar', weights)).kernels).toBe(scalarKernels);
  });

  it('uses a kernel set given as it is, its weights prepared on it', async () => {
    const prepared: Float32Array[] = [];
    const own = { ...scalarKernels, name: 'own', prepareWeights: (tensor: Float32Array) => void prepared.push(tensor) };
    expect(await create(own, weights)).toEqual({ kernels: own, description: 'own' });
    expect(prepared.length).toBe(weights.length);
    expect(prepared.every((tensor, index) => tensor === weights[index])).toBe(true);
  });
});
