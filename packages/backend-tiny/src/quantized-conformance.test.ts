import { createReferenceBackend, runBackendConformance, vitestHarness } from '@reward-lens/core/testing';
import { describe, it } from 'vitest';
import { dequantizedModel } from '../test/support/dequantized-model.js';
import { createTinyBackend } from './create-tiny-backend.js';

// Quantized and 16-bit weights against the float64 oracle over the same weights widened: the products
// (the SIMD dequantization, the blocks, the shared stores workers read) are checked to float32
// tolerance, apart from the quantization's own error (`model/quantized-matrix.test.ts`).
const harness = vitestHarness({ describe, it });
runBackendConformance({
  harness,
  label: 'backend-tiny q8 (wasm-simd, 1 thread)',
  createBackend: async (model) => createTinyBackend(model, { kernels: 'wasm-simd', threads: 1, dtype: 'q8' }),
  createReference: async (model) => createReferenceBackend(dequantizedModel(model, 'q8')),
});
runBackendConformance({
  harness,
  label: 'backend-tiny q4 (wasm-simd, 2 threads)',
  createBackend: async (model) => createTinyBackend(model, { kernels: 'wasm-simd', threads: 2, sliceTokens: 1, dtype: 'q4' }),
  createReference: async (model) => createReferenceBackend(dequantizedModel(model, 'q4')),
});
runBackendConformance({
  harness,
  label: 'backend-tiny q8 (scalar, 2 threads)',
  createBackend: async (model) => createTinyBackend(model, { kernels: 'scalar', threads: 2, sliceTokens: 1, dtype: 'q8' }),
  createReference: async (model) => createReferenceBackend(dequantizedModel(model, 'q8')),
});
runBackendConformance({
  harness,
  label: 'backend-tiny bf16 (wasm-simd, 2 threads)',
  createBackend: async (model) => createTinyBackend(model, { kernels: 'wasm-simd', threads: 2, sliceTokens: 1, dtype: 'bf16' }),
  createReference: async (model) => createReferenceBackend(dequantizedModel(model, 'bf16')),
});
runBackendConformance({
  harness,
  label: 'backend-tiny fp16 (wasm-simd, 1 thread)',
  createBackend: async (model) => createTinyBackend(model, { kernels: 'wasm-simd', threads: 1, dtype: 'fp16' }),
  createReference: async (model) => createReferenceBackend(dequantizedModel(model, 'fp16')),
});
