import { runGradientConformance } from '@reward-lens/core/testing';
import { createTinyBackend } from './create-tiny-backend.js';

runGradientConformance({ label: 'backend-tiny (wasm-simd)', createBackend: async (model) => createTinyBackend(model, { kernels: 'wasm-simd' }) });
runGradientConformance({ label: 'backend-tiny (scalar)', createBackend: async (model) => createTinyBackend(model, { kernels: 'scalar' }) });
