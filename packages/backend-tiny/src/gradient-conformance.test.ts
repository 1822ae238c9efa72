import { runGradientConformance, vitestHarness } from '@reward-lens/core/testing';
import { describe, it } from 'vitest';
import { createTinyBackend } from './create-tiny-backend.js';

const harness = vitestHarness({ describe, it });
runGradientConformance({ harness, label: 'backend-tiny (wasm-simd)', createBackend: async (model) => createTinyBackend(model, { kernels: 'wasm-simd' }) });
runGradientConformance({ harness, label: 'backend-tiny (scalar)', createBackend: async (model) => createTinyBackend(model, { kernels: 'scalar' }) });
