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
