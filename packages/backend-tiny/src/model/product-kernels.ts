import type { PrecisionV1, QuantizedFormatV1, QuantizedTensorV1 } from '@reward-lens/spec';
import type { KernelName } from '../kernels/kernel-choice.js';

/** How the products over reduced weights run, in words, and the precision that follows. */
export interface ProductKernels {
  /** One phrase per format held, e.g. `q8: int8 dot (i32x4.dot_i16x8_s)`; none for float32 weights. */
  phrases: string[];
  /**
   * `fp16` where q8 products run on integers: each token's activations are rounded to 16-bit
   * integers (±32767 times a scale per token), an error of at most 2^-16 of the token's largest
   * activation per element, so a product's error is at most 2^-16 · max|x| · Σ|w|. fp16's rounding
   * bounds it by 2^-12 · Σ|x·w|: the two agree for activations whose largest is under 16× their
   * mean magnitude, and the float32 tier's tolerance (1e-4) is tighter than either (measured:
   * 1.2e-4 through the conformance kit's three layers). `fp32` otherwise.
   */
  precision: PrecisionV1;
}

const widened: Record<QuantizedFormatV1, string> = {
  q8: 'q8: widened to float32',
  q4: 'q4: widened to float32',
  bf16: 'bf16: widened to float32',
  fp16: 'fp16: widened to float32',
};

/** The product kernels for the formats of `quantized` on kernels `kernels` (`'own'`: a caller's set, which decides itself). */
export function productKernels(kernels: KernelName | 'own', quantized: ReadonlyMap<string, QuantizedTensorV1>): ProductKernels {
  const formats = (['q8', 'q4', 'bf16', 'fp16'] as const).filter((format) => [...quantized.values()].some((tensor) => tensor.format === format));
  if (kernels === 'own') return { phrases: [], precision: 'fp32' };
  const integer = kernels === 'wasm-simd' && formats.includes('q8');
  const phrases = formats.map((format) =>
    format === 'q8' && integer
      ? 'q8: int8 dot (i32x4.dot_i16x8_s) over activations rounded per token to 16-bit integers'
      : `${widened[format]} ${kernels === 'wasm-simd' ? 'a block at a time (SIMD), then the f32x4 product' : 'a block at a time, then the scalar product'}`,
  );
  return { phrases, precision: integer ? 'fp16' : 'fp32' };
}
