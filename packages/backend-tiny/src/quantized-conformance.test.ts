import { createReferenceBackend, dequantizedModel, runBackendConformance, vitestHarness } from '@reward-lens/core/testing';
import { describe, it } from 'vitest';
import { createTinyBackend, type TinyBackendOptions } from './create-tiny-backend.js';

// Quantized and 16-bit weights against the float64 oracle over the same weights widened: the
// products (the SIMD widening, the blocks, the shared stores workers read) are checked to the
// tolerance of the precision the backend declares, apart from the quantization's own error (spec's
// `quantized-tensor.test.ts`). Widened products declare fp32. q8 on the SIMD kernels (and a q4
// model's q8 matrices) runs on integers over activations rounded to 16 bits a token, and declares
// fp16 (the bound is derived in `model/product-kernels.ts`; measured through the kit's models, 1.2e-4
// against fp32's 1e-4); its kernel is held to that bound itself in `int8-matmul-simd.test.ts`. Two
// threads split every pass (`sliceTokens: 1`, so even the kit's short requests use the pool).
const harness = vitestHarness({ describe, it });
const runs: [dtype: 'q8' | 'q4' | 'bf16' | 'fp16', kernels: 'wasm-simd' | 'scalar', threads: number][] = [
  ['q8', 'wasm-simd', 1],
  ['q8', 'wasm-simd', 2],
  ['q4', 'wasm-simd', 2],
  ['q8', 'scalar', 2],
  ['bf16', 'wasm-simd', 2],
  ['fp16', 'wasm-simd', 1],
];
for (const [dtype, kernels, threads] of runs) {
  const options: TinyBackendOptions = { kernels, threads, dtype, ...(threads > 1 ? { sliceTokens: 1 } : {}) };
  runBackendConformance({
    harness,
    label: `backend-tiny ${dtype} (${kernels}, ${threads} thread${threads > 1 ? 's' : ''})`,
    createBackend: async (model) => createTinyBackend(model, options),
    createReference: async (model) => createReferenceBackend(dequantizedModel(model, dtype)),
  });
}
