import { runBackendConformance, vitestHarness } from '@reward-lens/core/testing';
import { exportDecoderToOnnx } from '@reward-lens/onnx-export';
import { describe, it } from 'vitest';
import { createOnnxWebBackend } from './index.js';

// Parity against the float64 oracle (the kit's default reference), for every head shape.
runBackendConformance({
  harness: vitestHarness({ describe, it }),
  label: 'onnx-web in Chromium (wasm), graph with past and hidden states',
  createBackend: (model) =>
    createOnnxWebBackend(exportDecoderToOnnx(model, { withPast: true, hiddenStates: true, readPositions: true }), { decoder: model, numThreads: 1 }),
});
