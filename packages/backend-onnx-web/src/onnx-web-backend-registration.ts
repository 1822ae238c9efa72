import { isDecoderSource, isOnnxSource, unsupportedSourceReason, type BackendRegistration } from '@reward-lens/spec';

import { createOrtBackendFromSource, ortBackendDtypes } from '@reward-lens/onnx-backend-common';
import { createOnnxWebBackend, type OnnxWebBackendOptions } from './create-onnx-web-backend.js';

/**
 * Registers `onnx-web` (priority 15: below `onnx-node`, above `tiny`). It runs in browsers and in
 * Node: ONNX graphs (`source.bytes` when the graph is in memory, else `source.path`, read from disk
 * in Node and fetched in browsers), and decoder weights by first exporting them with
 * `@reward-lens/onnx-export` in memory (with the cache and hidden states, and LINEAR_READOUT from
 * the weights). It holds q8 and q4 weights (onnxruntime-web runs MatMulNBits). Settings come from
 * `settings['onnx-web']` (`OnnxWebBackendOptions`).
 */
export const onnxWebBackendRegistration: BackendRegistration = {
  name: 'onnx-web',
  priority: 15,
  sourceKinds: ['onnx', 'decoder'],
  dtypes: ortBackendDtypes,
  unavailableReason(source) {
    return isOnnxSource(source) || isDecoderSource(source) ? null : unsupportedSourceReason('onnx-web', source, ['onnx', 'decoder']);
  },
  async create(source, options) {
    const own = (options.settings?.['onnx-web'] ?? {}) as OnnxWebBackendOptions;
    // `threads` means onnxruntime-web's wasm threads here (env.wasm.numThreads), unless the settings give their own.
    const settings = options.threads !== undefined && own.numThreads === undefined ? { ...own, numThreads: options.threads } : own;
    // The exporter is loaded only when a decoder is exported, so that running ONNX files needs none.
    const exporter = async () => (await import('@reward-lens/onnx-export')).exportDecoderToOnnx;
    return createOrtBackendFromSource({ name: 'onnx-web', create: createOnnxWebBackend, exporter }, source, options, settings);
  },
};
