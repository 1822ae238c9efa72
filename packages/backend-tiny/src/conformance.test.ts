import { runBackendConformance, vitestHarness } from '@reward-lens/core/testing';
import { describe, it } from 'vitest';
import { createTinyBackend } from './create-tiny-backend.js';

// Both kernel sets against the float64 oracle (the kit's default reference), never against each other.
runBackendConformance({
  harness: vitestHarness({ describe, it }),
  label: 'backend-tiny (wasm-simd)',
  createBackend: async (model) => createTinyBackend(model, { kernels: 'wasm-simd' }),
});
runBackendConformance({
  harness: vitestHarness({ describe, it }),
  label: 'backend-tiny (scalar)',
  createBackend: async (model) => createTinyBackend(model, { kernels: 'scalar' }),
});
