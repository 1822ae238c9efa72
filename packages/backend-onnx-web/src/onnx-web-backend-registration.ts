import { isDecoderSource, isOnnxSource, unsupportedSourceReason, type BackendRegistration } from '@reward-lens/spec';

import { inMemoryGraphOptions } from '@reward-lens/onnx-backend-common';
import { createOnnxWebBackend, type OnnxWebBackendOptions } from './create-onnx-web-backend.js';

/**
 * Registers `onnx-web` (priority 15: below `onnx-node`, above `tiny`). It runs in browsers and in
 * Node: ONNX graphs (`source.bytes` when the graph is in memory, else `source.path`, read from disk
 * in Node and fetched in browsers), and decoder weights by first exporting them with
 * `@reward-lens/onnx-export` in memory (with the cache and hidden states, and LINEAR_READOUT from
 * the weights). Settings come from `settings['onnx-web']`
 * (`OnnxWebBackendOptions`).
 */
export const onnxWebBackendRegistration: BackendRegistration = {
  name: 'onnx-web',
  priority: 15,
  sourceKinds: ['onnx', 'decoder'],
  unavailableReason(source) {
    return isOnnxSource(source) || isDecoderSource(source) ? null : unsupportedSourceReason('onnx-web', source, ['onnx', 'decoder']);
  },
  async create(source, options) {
    const own = (options.settings?.['onnx-web'] ?? {}) as OnnxWebBackendOptions;
    // `threads` means onnxruntime-web's wasm threads here (env.wasm.numThreads), unless the settings give their own.
    const settings = options.threads !== undefined && own.numThreads === undefined ? { ...own, numThreads: options.threads } : own;
    if (isOnnxSource(source)) {
      // A graph already in memory (picked files, `ProcessRM.fromFiles`) runs from its bytes, with the config.json text it came with.
      return source.bytes ? createOnnxWebBackend(source.bytes, inMemoryGraphOptions(source, settings)) : createOnnxWebBackend(source.path, settings);
    }
    if (!isDecoderSource(source)) throw new Error(unsupportedSourceReason('onnx-web', source, ['onnx', 'decoder']));
    // Loaded only when a decoder is exported, so that running ONNX files needs no exporter.
    const { exportDecoderToOnnx } = await import('@reward-lens/onnx-export');
    const graph = exportDecoderToOnnx(source.model, { withPast: true, hiddenStates: true, readPositions: true });
    return createOnnxWebBackend(graph, { ...settings, decoder: source.model, sourceNote: 'exported to ONNX in memory from decoder weights' });
  },
};
