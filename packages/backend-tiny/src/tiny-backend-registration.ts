import { isDecoderSource, unsupportedSourceReason, type BackendRegistration } from '@reward-lens/spec';

import { createTinyBackendAsync, type TinyBackendOptions } from './create-tiny-backend.js';
import type { TinyDtype } from './model/quantization-plan.js';

/**
 * Registers `tiny` for in-memory decoder weights; it skips ONNX graphs with a reason. It creates
 * backends asynchronously, so that a browser's main thread gets the WebAssembly SIMD kernels too.
 * Settings come from `settings.tiny` (`TinyBackendOptions`); `threads` and `dtype` from the
 * options, unless the settings give their own.
 */
export const tinyBackendRegistration: BackendRegistration = {
  name: 'tiny',
  priority: 10,
  sourceKinds: ['decoder'],
  // It runs weights a loader read into a weight arena where they lie (no copy).
  takesWeightArena: true,
  // 16-bit and quantized weights, from a loader or from float32 ones (`TinyBackendOptions.dtype`).
  dtypes: ['fp32', 'bf16', 'fp16', 'q8', 'q4'],
  unavailableReason(source) {
    return isDecoderSource(source) ? null : unsupportedSourceReason('tiny', source, ['decoder']);
  },
  async create(source, options) {
    if (!isDecoderSource(source)) throw new Error(unsupportedSourceReason('tiny', source, ['decoder']));
    const settings = (options.settings?.tiny ?? {}) as TinyBackendOptions;
    return createTinyBackendAsync(source.model, {
      ...(options.threads !== undefined ? { threads: options.threads } : {}),
      ...(options.dtype !== undefined && options.dtype !== 'fp32' ? { dtype: options.dtype as TinyDtype } : {}),
      ...settings,
    });
  },
};
