import { acquireDevice } from '../../src/device/acquire-device.js';
import { getNodeGpu } from '../../src/node-gpu.js';

/**
 * Why WebGPU tests cannot run here, or null when SwiftShader (or a GPU) answers. Tests skip
 * with this reason locally; under CI (`CI` set) they run anyway and fail loudly, since CI's
 * bootstrap installs SwiftShader.
 */
export async function webGpuUnavailableReason(): Promise<string | null> {
  if (process.env.CI) return null;
  try {
    const adapter = await (await getNodeGpu({ software: true })).requestAdapter();
    return adapter ? null : 'no WebGPU adapter (apt-get install chromium libvulkan1 for SwiftShader)';
  } catch (error) {
    return `WebGPU could not start: ${error instanceof Error ? error.message : String(error)}`;
  }
}

let shared: Promise<GPUDevice> | undefined;

/**
 * One device per test file, shared by the backends the file creates: pipelines are cached per
 * device, and compiling them takes seconds on SwiftShader.
 */
export function sharedSoftwareDevice(): Promise<GPUDevice> {
  shared ??= getNodeGpu({ software: true }).then(async (gpu) => (await acquireDevice({ gpu, allowSoftwareAdapter: true })).device);
  return shared;
}
