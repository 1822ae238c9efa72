import { runBackendConformance } from '@reward-lens/core/testing';
import { createTinyBackend } from './create-tiny-backend.js';

runBackendConformance({
  label: 'backend-tiny (wasm-simd)',
  createBackend: async (model) => createTinyBackend(model, { kernels: 'wasm-simd' }),
  createReference: async (model) => createTinyBackend(model, { kernels: 'scalar' }),
});
runBackendConformance({ label: 'backend-tiny (scalar)', createBackend: async (model) => createTinyBackend(model, { kernels: 'scalar' }) });
