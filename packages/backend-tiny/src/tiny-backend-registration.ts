import type { BackendRegistration } from '@reward-lens/core/internal';
import { createTinyBackendAsync } from './create-tiny-backend.js';

/**
 * Registers `tiny` for in-memory decoder weights; it skips ONNX graphs with a reason. It creates
 * backends asynchronously, so that a browser's main thread gets the WebAssembly SIMD kernels too.
 */
export const tinyBackendRegistration: BackendRegistration = {
  name: 'tiny',
  priority: 10,
  unavailableReason(source) {
    return source.kind === 'decoder' ? null : 'backend-tiny runs decoder weights in memory, not ONNX graphs';
  },
  async create(source) {
    if (source.kind !== 'decoder') throw new Error(`backend-tiny cannot run a "${source.kind}" source`);
    return createTinyBackendAsync(source.model);
  },
};
