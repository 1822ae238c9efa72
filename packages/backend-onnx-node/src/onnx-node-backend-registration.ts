import { isDecoderSource, isOnnxSource, unsupportedSourceReason, type BackendRegistration } from '@reward-lens/spec';

import { createOrtBackendFromSource, ortBackendDtypes } from '@reward-lens/onnx-backend-common';
import { createOnnxNodeBackend, type OnnxNodeBackendOptions } from './create-onnx-node-backend.js';

/**
 * Registers `onnx-node` (priority 20, above `tiny`): it runs ONNX graphs from disk or in memory (`source.bytes`), and decoder
 * weights in memory by first exporting them with `@reward-lens/onnx-export` (in memory, so up to
 * protobuf's 2 GiB; with the cache and hidden states, and LINEAR_READOUT from the weights). It
 * holds q8 and q4 weights: a graph of them (`model_q4.onnx`), or weights exported so.
 * Settings come from `settings['onnx-node']` (`OnnxNodeBackendOptions`).
 */
export const onnxNodeBackendRegistration: BackendRegistration = {
  name: 'onnx-node',
  priority: 20,
  sourceKinds: ['onnx', 'decoder'],
  dtypes: ortBackendDtypes,
  unavailableReason(source) {
    return isOnnxSource(source) || isDecoderSource(source) ? null : unsupportedSourceReason('onnx-node', source, ['onnx', 'decoder']);
  },
  async create(source, options) {
    const own = (options.settings?.['onnx-node'] ?? {}) as OnnxNodeBackendOptions;
    // `threads` means onnxruntime's intra-op threads here, unless the settings give their own.
    const settings = options.threads !== undefined && own.intraOpThreads === undefined ? { ...own, intraOpThreads: options.threads } : own;
    // The exporter is loaded only when a decoder is exported, so that running ONNX files needs none.
    const exporter = async () => (await import('@reward-lens/onnx-export')).exportDecoderToOnnx;
    return createOrtBackendFromSource({ name: 'onnx-node', create: createOnnxNodeBackend, exporter }, source, options, settings);
  },
};
