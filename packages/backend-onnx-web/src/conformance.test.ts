import { createTinyBackend } from '@reward-lens/backend-tiny';
import { runBackendConformance } from '@reward-lens/core/testing';
import { exportDecoderToOnnx } from '@reward-lens/onnx-export';
import { createOnnxWebBackend } from './index.js';

runBackendConformance({
  label: 'onnx-web in Node (wasm), graph with past and hidden states',
  createBackend: (model) =>
    createOnnxWebBackend(exportDecoderToOnnx(model, { withPast: true, hiddenStates: true, readPositions: true }), { decoder: model, numThreads: 1 }),
  createReference: async (model) => createTinyBackend(model),
});
