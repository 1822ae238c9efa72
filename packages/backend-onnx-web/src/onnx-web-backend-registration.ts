import type { BackendRegistration } from '@reward-lens/core/internal';
import { createOnnxWebBackend, type OnnxWebBackendOptions } from './create-onnx-web-backend.js';

/**
 * Registers `onnx-web` (priority 15: below `onnx-node`, above `tiny`). It runs in browsers and in
 * Node: ONNX graphs (`source.path` is read from disk in Node and fetched in browsers), and decoder
 * weights by first exporting them with `@reward-lens/onnx-export` in memory (with the cache and
 * hidden states, and LINEAR_READOUT from the weights). Settings come from `settings['onnx-web']`
 * (`OnnxWebBackendOptions`).
 */
export const onnxWebBackendRegistration: BackendRegistration = {
  name: 'onnx-web',
  priority: 15,
  unavailableReason(source) {
    return source.kind === 'onnx' || source.kind === 'decoder' ? null : `backend onnx-web cannot run a "${(source as { kind: string }).kind}" source`;
  },
  async create(source, options) {
    const settings = (options.settings?.['onnx-web'] ?? {}) as OnnxWebBackendOptions;
    if (source.kind === 'onnx') return createOnnxWebBackend(source.path, settings);
    // Loaded only when a decoder is exported, so that running ONNX files needs no exporter.
    const { exportDecoderToOnnx } = await import('@reward-lens/onnx-export');
    const graph = exportDecoderToOnnx(source.model, { withPast: true, hiddenStates: true, readPositions: true });
    return createOnnxWebBackend(graph, { ...settings, decoder: source.model, sourceNote: 'exported to ONNX in memory from decoder weights' });
  },
};
