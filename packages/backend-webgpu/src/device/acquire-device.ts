import { WebGpuUnavailableError } from '../errors/webgpu-unavailable-error.js';
import { getNodeGpu, isNodeRuntime } from '../node-gpu.js';
import { describeAdapterInfo, isSoftwareAdapter, isSoftwareAdapterInfo } from './adapter-kind.js';
import { browserInstallHint, softwareInstallHint } from './install-hints.js';

export interface AcquireDeviceOptions {
  /** The WebGPU entry point: `navigator.gpu` in browsers (the default there), `getNodeGpu()` in Node (the default there). */
  gpu?: GPU;
  /** An adapter to use instead of requesting one. */
  adapter?: GPUAdapter;
  /** A device to share (it is not destroyed on dispose). Its features decide fp16. */
  device?: GPUDevice;
  powerPreference?: GPUPowerPreference;
  /** Run on a software adapter (SwiftShader and the like) when that is what there is. Default false. */
  allowSoftwareAdapter?: boolean;
  /** Ask for the implementation's fallback (software) adapter. */
  forceFallbackAdapter?: boolean;
  /** Ask for `shader-f16` when the adapter has it. */
  wantShaderF16?: boolean;
}

export interface AcquiredDevice {
  device: GPUDevice;
  /** True when this package created the device (and so destroys it on dispose). */
  ownsDevice: boolean;
  info: GPUAdapterInfo | undefined;
  software: boolean;
  shaderF16: boolean;
}

function hintForPlatform(): string {
  return isNodeRuntime() ? softwareInstallHint : browserInstallHint;
}

/** The `GPU` to ask: the one given, the browser's `navigator.gpu`, or Dawn's in Node. */
export async function resolveGpu(options: { gpu?: GPU; software?: boolean }): Promise<GPU> {
  if (options.gpu) return options.gpu;
  const browserGpu = (globalThis as { navigator?: { gpu?: GPU } }).navigator?.gpu;
  if (browserGpu) return browserGpu;
  if (isNodeRuntime()) return getNodeGpu({ software: options.software === true });
  throw new WebGpuUnavailableError(`this runtime has no WebGPU (navigator.gpu is missing). ${browserInstallHint}`);
}

/**
 * An adapter, or a {@link WebGpuUnavailableError} saying what to install. In Node without a
 * `gpu`, a software adapter is tried only when allowed and no other adapter exists.
 */
export async function requestWebGpuAdapter(options: AcquireDeviceOptions): Promise<GPUAdapter> {
  if (options.adapter) return options.adapter;
  const request: GPURequestAdapterOptions = {};
  if (options.powerPreference) request.powerPreference = options.powerPreference;
  if (options.forceFallbackAdapter) request.forceFallbackAdapter = true;
  const gpu = await resolveGpu({ gpu: options.gpu, software: options.forceFallbackAdapter });
  let adapter = await gpu.requestAdapter(request);
  if (!adapter && options.allowSoftwareAdapter && !options.forceFallbackAdapter) {
    const softwareGpu = options.gpu ?? (await resolveGpu({ software: true }));
    adapter = await softwareGpu.requestAdapter({ ...request, forceFallbackAdapter: true });
  }
  if (!adapter) {
    throw new WebGpuUnavailableError(`no WebGPU adapter is available (requestAdapter() returned null). ${hintForPlatform()}`);
  }
  return adapter;
}

/**
 * A device for the backend: the one given, or one requested from the adapter with the
 * adapter's largest buffer limits (model weights and caches outgrow the defaults) and
 * `shader-f16` when wanted and present. Refuses software adapters unless allowed.
 */
export async function acquireDevice(options: AcquireDeviceOptions): Promise<AcquiredDevice> {
  if (options.device) {
    const info = options.device.adapterInfo as GPUAdapterInfo | undefined;
    const software = isSoftwareAdapterInfo(info);
    refuseSoftware(software, info, options);
    return { device: options.device, ownsDevice: false, info, software, shaderF16: options.device.features.has('shader-f16') };
  }
  const adapter = await requestWebGpuAdapter(options);
  const software = isSoftwareAdapter(adapter);
  refuseSoftware(software, adapter.info, options);
  const shaderF16 = options.wantShaderF16 === true && adapter.features.has('shader-f16');
  const { limits } = adapter;
  let device: GPUDevice;
  try {
    device = await adapter.requestDevice({
      label: 'reward-lens webgpu backend',
      requiredFeatures: shaderF16 ? ['shader-f16'] : [],
      requiredLimits: {
        maxStorageBufferBindingSize: limits.maxStorageBufferBindingSize,
        maxBufferSize: limits.maxBufferSize,
        maxStorageBuffersPerShaderStage: Math.min(limits.maxStorageBuffersPerShaderStage, 10),
      },
    });
  } catch (error) {
    throw new WebGpuUnavailableError(
      `the adapter ${describeAdapterInfo(adapter.info)} refused a device: ${error instanceof Error ? error.message : String(error)}`,
      { cause: error },
    );
  }
  return { device, ownsDevice: true, info: adapter.info, software, shaderF16 };
}

function refuseSoftware(software: boolean, info: GPUAdapterInfo | undefined, options: AcquireDeviceOptions): void {
  if (software && !options.allowSoftwareAdapter) {
    throw new WebGpuUnavailableError(
      `the WebGPU adapter is a software one (${describeAdapterInfo(info)}), which runs shaders on the CPU; ` +
        'pass allowSoftwareAdapter: true (or use the "webgpu-software" backend) to run on it anyway',
    );
  }
}
