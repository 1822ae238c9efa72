import { runGradientConformance, vitestHarness } from '@reward-lens/core/testing';
import { describe, it } from 'vitest';
import { createTinyBackend } from './create-tiny-backend.js';

// On two threads the shards are small (`shardTokens: 8`), so the kit's batches are cut into
// several shards and reduced across the workers.
const harness = vitestHarness({ describe, it });
runGradientConformance({
  harness,
  label: 'backend-tiny (wasm-simd, 1 thread)',
  createBackend: async (model) => createTinyBackend(model, { kernels: 'wasm-simd', threads: 1 }),
});
runGradientConformance({
  harness,
  label: 'backend-tiny (wasm-simd, 2 threads)',
  createBackend: async (model) => createTinyBackend(model, { kernels: 'wasm-simd', threads: 2, sliceTokens: 1, shardTokens: 8 }),
});
runGradientConformance({
  harness,
  label: 'backend-tiny (scalar, 1 thread)',
  createBackend: async (model) => createTinyBackend(model, { kernels: 'scalar', threads: 1 }),
});
