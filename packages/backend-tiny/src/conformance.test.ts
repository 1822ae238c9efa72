import { runBackendConformance, vitestHarness } from '@reward-lens/core/testing';
import { describe, it } from 'vitest';
import { createTinyBackend } from './create-tiny-backend.js';

// Both kernel sets against the float64 oracle (the kit's default reference), never against each
// other; the SIMD kernels on one thread and on two, every pass split across the two workers
// (`sliceTokens: 1`, so even the kit's short requests go through the pool).
const harness = vitestHarness({ describe, it });
runBackendConformance({
  harness,
  label: 'backend-tiny (wasm-simd, 1 thread)',
  createBackend: async (model) => createTinyBackend(model, { kernels: 'wasm-simd', threads: 1 }),
});
runBackendConformance({
  harness,
  label: 'backend-tiny (wasm-simd, 2 threads)',
  createBackend: async (model) => createTinyBackend(model, { kernels: 'wasm-simd', threads: 2, sliceTokens: 1 }),
});
runBackendConformance({
  harness,
  label: 'backend-tiny (scalar, 1 thread)',
  createBackend: async (model) => createTinyBackend(model, { kernels: 'scalar', threads: 1 }),
});
