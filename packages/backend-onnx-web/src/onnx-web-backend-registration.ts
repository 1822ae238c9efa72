import type { BackendRegistration } from '@reward-lens/spec';

import { ortBackendRegistration } from '@reward-lens/onnx-backend-common';
import { createOnnxWebBackend, type OnnxWebBackendOptions } from './create-onnx-web-backend.js';

/**
 * Registers `onnx-web` (priority 15: below `onnx-node`, above `tiny`). It runs in browsers and in
 * Node: ONNX graphs (`source.bytes` when the graph is in memory, else `source.path`, read from disk
 * in Node and fetched in browsers), and decoder weights by first exporting them with
 * `@reward-lens/onnx-export` in memory (with the cache and hidden states, and LINEAR_READOUT from
 * the weights). It holds q8 and q4 weights (onnxruntime-web runs MatMulNBits). Settings come from
 * `settings['onnx-web']` (`OnnxWebBackendOptions`).
 */
export const onnxWebBackendRegistration: BackendRegistration = ortBackendRegistration<OnnxWebBackendOptions>({
  name: 'onnx-web',
  priority: 15,
  // `threads` means onnxruntime-web's wasm threads here (env.wasm.numThreads), unless the settings give their own.
  threadsOption: 'numThreads',
  create: createOnnxWebBackend,
  // The exporter is loaded only when a decoder is exported, so that running ONNX files needs none.
  exporter: async () => (await import('@reward-lens/onnx-export')).exportDecoderToOnnx,
});
