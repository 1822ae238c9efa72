import { isDecoderSource, unsupportedSourceReason } from '@reward-lens/core';
import type { BackendRegistration } from '@reward-lens/core';
import { createTinyBackendAsync } from './create-tiny-backend.js';

/**
 * Registers `tiny` for in-memory decoder weights; it skips ONNX graphs with a reason. It creates
 * backends asynchronously, so that a browser's main thread gets the WebAssembly SIMD kernels too.
 */
export const tinyBackendRegistration: BackendRegistration = {
  name: 'tiny',
  priority: 10,
  sourceKinds: ['decoder'],
  unavailableReason(source) {
    return isDecoderSource(source) ? null : unsupportedSourceReason('tiny', source, ['decoder']);
  },
  async create(source) {
    if (!isDecoderSource(source)) throw new Error(unsupportedSourceReason('tiny', source, ['decoder']));
    return createTinyBackendAsync(source.model);
  },
};
