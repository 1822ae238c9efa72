import { runBackendConformance, vitestHarness } from '@reward-lens/core/testing';
import { exportDecoderToOnnx } from '@reward-lens/onnx-export';
import { describe, it } from 'vitest';
import { createOnnxNodeBackend } from './index.js';

// Parity against the float64 oracle (the kit's default reference), for every head shape.
runBackendConformance({
  harness: vitestHarness({ describe, it }),
  label: 'onnx-node, graph with past, hidden states and read positions',
  createBackend: (model) =>
    createOnnxNodeBackend(exportDecoderToOnnx(model, { withPast: true, hiddenStates: true, readPositions: true }), { decoder: model, intraOpThreads: 1 }),
});

// No cache, no hidden states, no weights: the suite checks the typed refusals, and skips what needs them.
runBackendConformance({
  harness: vitestHarness({ describe, it }),
  label: 'onnx-node, heads only',
  createBackend: (model) => createOnnxNodeBackend(exportDecoderToOnnx(model, { withPast: false }), { config: model.config, intraOpThreads: 1 }),
});

// A float16 graph (the hub's model_fp16.onnx, as `dtype: 'fp16'` exports it: weights, activations
// and cache in half precision), against the float64 oracle over the float32 weights at the
// tolerance of the fp16 precision it declares.
runBackendConformance({
  harness: vitestHarness({ describe, it }),
  label: 'onnx-node, float16 graph with past, hidden states and read positions',
  createBackend: (model) =>
    createOnnxNodeBackend(exportDecoderToOnnx(model, { withPast: true, hiddenStates: true, readPositions: true, dtype: 'fp16' }), {
      decoder: model,
      intraOpThreads: 1,
    }),
});
