import type { BackendRegistration } from '@reward-lens/spec';

import { ortBackendRegistration } from '@reward-lens/onnx-backend-common';
import { createOnnxNodeBackend, type OnnxNodeBackendOptions } from './create-onnx-node-backend.js';

/**
 * Registers `onnx-node` (priority 20, above `tiny`): it runs ONNX graphs from disk or in memory (`source.bytes`), and decoder
 * weights by first exporting them with `@reward-lens/onnx-export` (in memory up to 1.75 GiB of
 * weights, past that through a temporary folder with external data, removed once loaded; with
 * the cache and hidden states, and LINEAR_READOUT from the weights). It
 * holds q8 and q4 weights: a graph of them (`model_q4.onnx`), or weights exported so.
 * Settings come from `settings['onnx-node']` (`OnnxNodeBackendOptions`).
 */
export const onnxNodeBackendRegistration: BackendRegistration = ortBackendRegistration<OnnxNodeBackendOptions>({
  name: 'onnx-node',
  priority: 20,
  // `threads` means onnxruntime's intra-op threads here, unless the settings give their own.
  threadsOption: 'intraOpThreads',
  create: createOnnxNodeBackend,
  // The exporter is loaded only when a decoder is exported, so that running ONNX files needs none.
  exporter: async () => (await import('@reward-lens/onnx-export')).exportDecoderToOnnx,
  // Weights over protobuf's 2 GiB go through a temporary folder with external data, which onnxruntime-node reads from disk.
  exportToFiles: async () => (await import('@reward-lens/onnx-export/node')).writeTemporaryOnnxGraph,
  // A weights folder named with `backend: 'onnx-node'` is read and exported by a thread that then ends, so this process holds the weights only in onnxruntime.
  exportFolderToFiles: async () => (await import('@reward-lens/onnx-export/node')).exportFolderInWorker,
});
