import { isDecoderSource, isOnnxSource, unsupportedSourceReason, type BackendRegistration } from '@reward-lens/spec';

import { inMemoryGraphOptions } from '@reward-lens/onnx-backend-common';
import { createOnnxNodeBackend, type OnnxNodeBackendOptions } from './create-onnx-node-backend.js';

/**
 * Registers `onnx-node` (priority 20, above `tiny`): it runs ONNX graphs from disk or in memory (`source.bytes`), and decoder
 * weights in memory by first exporting them with `@reward-lens/onnx-export` (in memory, so up to
 * protobuf's 2 GiB; with the cache and hidden states, and LINEAR_READOUT from the weights).
 * Settings come from `settings['onnx-node']` (`OnnxNodeBackendOptions`).
 */
export const onnxNodeBackendRegistration: BackendRegistration = {
  name: 'onnx-node',
  priority: 20,
  sourceKinds: ['onnx', 'decoder'],
  unavailableReason(source) {
    return isOnnxSource(source) || isDecoderSource(source) ? null : unsupportedSourceReason('onnx-node', source, ['onnx', 'decoder']);
  },
  async create(source, options) {
    const own = (options.settings?.['onnx-node'] ?? {}) as OnnxNodeBackendOptions;
    // `threads` means onnxruntime's intra-op threads here, unless the settings give their own.
    const settings = options.threads !== undefined && own.intraOpThreads === undefined ? { ...own, intraOpThreads: options.threads } : own;
    if (isOnnxSource(source)) {
      // A graph already in memory (picked files, `ProcessRM.fromFiles`) runs from its bytes, with the config.json text it came with.
      return source.bytes ? createOnnxNodeBackend(source.bytes, inMemoryGraphOptions(source, settings)) : createOnnxNodeBackend(source.path, settings);
    }
    if (!isDecoderSource(source)) throw new Error(unsupportedSourceReason('onnx-node', source, ['onnx', 'decoder']));
    // Loaded only when a decoder is exported, so that running ONNX files needs no exporter.
    const { exportDecoderToOnnx } = await import('@reward-lens/onnx-export');
    const graph = exportDecoderToOnnx(source.model, { withPast: true, hiddenStates: true, readPositions: true });
    return createOnnxNodeBackend(graph, { ...settings, decoder: source.model, sourceNote: 'exported to ONNX in memory from decoder weights' });
  },
};
