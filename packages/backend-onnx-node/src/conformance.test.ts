import { createTinyBackend } from '@reward-lens/backend-tiny';
import { runBackendConformance } from '@reward-lens/core/testing';
import { exportDecoderToOnnx } from '@reward-lens/onnx-export';
import { createOnnxNodeBackend } from './index.js';

runBackendConformance({
  label: 'onnx-node, graph with past, hidden states and read positions',
  createBackend: (model) =>
    createOnnxNodeBackend(exportDecoderToOnnx(model, { withPast: true, hiddenStates: true, readPositions: true }), { decoder: model, intraOpThreads: 1 }),
  createReference: async (model) => createTinyBackend(model),
});

// No cache, no hidden states, no weights: the suite checks the typed refusals.
runBackendConformance({
  label: 'onnx-node, heads only',
  createBackend: (model) => createOnnxNodeBackend(exportDecoderToOnnx(model, { withPast: false }), { config: model.config, intraOpThreads: 1 }),
  createReference: async (model) => createTinyBackend(model),
});
