import type {} from './webgpu-types.js';
import { isDecoderSource, unsupportedSourceReason, type ModelSource, type BackendRegistration, type WeightDtypeV1 } from '@reward-lens/spec';

import { createWebGpuBackend, type WebGpuBackendOptions } from './create-webgpu-backend.js';
import { describeAdapterInfo, isSoftwareAdapter } from './device/adapter-kind.js';
import { requestWebGpuAdapter } from './device/acquire-device.js';
import { linuxGpuDevicePresent } from './device/gpu-device-files.js';

function decoderOnly(name: string, source: ModelSource): string | null {
  return isDecoderSource(source) ? null : unsupportedSourceReason(name, source, ['decoder']);
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * Registers `webgpu` (priority 30, above `onnx-node` and `tiny`) for decoder weights. `'auto'`
 * takes it only where a hardware adapter answers: a software adapter (SwiftShader and the like) is
 * slower than the CPU backends, so `'auto'` skips it with a reason (on Linux without a GPU device
 * file, before starting Dawn at all); asked for by name, it runs on a software adapter too.
 * Settings come from `settings.webgpu` (`WebGpuBackendOptions`).
 */
export const webGpuBackendRegistration: BackendRegistration = {
  name: 'webgpu',
  priority: 30,
  sourceKinds: ['decoder'],
  // fp16: weight matrices stored in half precision where the adapter has shader-f16 (else float32, said in the description); bf16, q8 and q4 on any adapter.
  dtypes: ['fp32', 'fp16', 'bf16', 'q8', 'q4'],
  async unavailableReason(source, { requestedByName }) {
    const wrongSource = decoderOnly('webgpu', source);
    if (wrongSource) return wrongSource;
    // `'auto'` takes hardware adapters only: where the machine has no GPU, do not start Dawn (its
    // probe prints native errors on stderr on a headless machine) to learn what is already known.
    if (!requestedByName && (await linuxGpuDevicePresent()) === false) {
      return 'this machine has no GPU device (no /dev/dri/renderD*, /dev/nvidia* or /dev/dxg), so no hardware WebGPU adapter; ask for "webgpu" by name to run on a software adapter';
    }
    let adapter: GPUAdapter;
    try {
      adapter = await requestWebGpuAdapter({ powerPreference: 'high-performance', allowSoftwareAdapter: requestedByName });
    } catch (error) {
      return messageOf(error);
    }
    if (isSoftwareAdapter(adapter) && !requestedByName) {
      return `the only WebGPU adapter is a software one (${describeAdapterInfo(adapter.info)}); ask for "webgpu" by name to run on it anyway`;
    }
    return null;
  },
  async create(source, options) {
    if (!isDecoderSource(source)) throw new Error(unsupportedSourceReason('webgpu', source, ['decoder']));
    const settings = (options.settings?.webgpu ?? {}) as WebGpuBackendOptions;
    // Named by the user, a software adapter is acceptable (the backend's description says which adapter runs).
    return createWebGpuBackend(source.model, {
      powerPreference: 'high-performance',
      allowSoftwareAdapter: options.requestedByName === true,
      ...precisionOf(options.dtype),
      ...settings,
    });
  },
};

/**
 * Registers `webgpu-software`: WebGPU on the implementation's fallback adapter (SwiftShader in
 * Node, set up by `getNodeGpu({ software: true })`; the browser's own fallback otherwise). Never
 * chosen by `'auto'`; ask for it by name, for tests and CI without a GPU. Settings come from
 * `settings['webgpu-software']`.
 */
export const webGpuSoftwareBackendRegistration: BackendRegistration = {
  name: 'webgpu-software',
  priority: 5,
  explicitOnly: true,
  sourceKinds: ['decoder'],
  // fp16: weight matrices stored in half precision where the adapter has shader-f16 (else float32, said in the description); bf16, q8 and q4 on any adapter.
  dtypes: ['fp32', 'fp16', 'bf16', 'q8', 'q4'],
  async unavailableReason(source) {
    const wrongSource = decoderOnly('webgpu-software', source);
    if (wrongSource) return wrongSource;
    try {
      await requestWebGpuAdapter({ forceFallbackAdapter: true, allowSoftwareAdapter: true });
      return null;
    } catch (error) {
      return messageOf(error);
    }
  },
  async create(source, options) {
    if (!isDecoderSource(source)) throw new Error(unsupportedSourceReason('webgpu-software', source, ['decoder']));
    const settings = (options.settings?.['webgpu-software'] ?? {}) as WebGpuBackendOptions;
    return createWebGpuBackend(source.model, {
      forceFallbackAdapter: true,
      allowSoftwareAdapter: true,
      name: 'webgpu-software',
      ...precisionOf(options.dtype),
      ...settings,
    });
  },
};

/** The resolver's `dtype`, as the backend's own. */
function precisionOf(dtype: WeightDtypeV1 | undefined): { dtype?: WeightDtypeV1 } {
  return dtype === undefined ? {} : { dtype };
}
