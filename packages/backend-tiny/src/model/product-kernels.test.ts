import { describe, expect, it } from 'vitest';
import { testModel } from '../../test/support/test-models.js';
import { createTinyBackend, type TinyBackendOptions } from '../create-tiny-backend.js';

const int8 = 'q8: int8 dot (i32x4.dot_i16x8_s) over activations rounded per token to 16-bit integers';

describe('the product kernels a reduced backend names', () => {
  const cases: [options: TinyBackendOptions, hiddenSize: number, phrases: string[], precision: 'fp32' | 'fp16'][] = [
    [{ dtype: 'q8', kernels: 'wasm-simd' }, 32, [int8], 'fp16'],
    [{ dtype: 'q8', kernels: 'scalar' }, 32, ['q8: widened to float32 a block at a time, then the scalar product'], 'fp32'],
    [{ dtype: 'bf16', kernels: 'wasm-simd' }, 32, ['bf16: widened to float32 a block at a time (SIMD), then the f32x4 product'], 'fp32'],
    // Hidden 40 is no whole number of q4 blocks: the projections reading it are held as q8, on integers.
    [{ dtype: 'q4', kernels: 'wasm-simd' }, 40, [int8, 'q4: widened to float32 a block at a time (SIMD), then the f32x4 product'], 'fp16'],
  ];
  for (const [options, hiddenSize, phrases, precision] of cases) {
    it(`${options.dtype} on ${options.kernels}: ${phrases.length} format(s) in the description and notes, precision ${precision}`, async () => {
      const backend = createTinyBackend(testModel(3, { hiddenSize, intermediateSize: 64, numHeads: 4, numKvHeads: 2 }), { ...options, threads: 1 });
      try {
        expect(backend.info.description).toContain(` products=[${phrases.join('; ')}]`);
        expect(backend.info.notes).toContain(`backend "tiny" product kernels: ${phrases.join('; ')} (precision ${precision})`);
        expect(backend.precision).toBe(precision);
      } finally {
        await backend.dispose();
      }
    });
  }

  it('fp32 names none and keeps precision fp32', async () => {
    const backend = createTinyBackend(testModel(3), { threads: 1 });
    expect(backend.info.description).not.toContain('products=');
    expect(backend.precision).toBe('fp32');
    await backend.dispose();
  });
});
