import { WebGpuUnavailableError } from './errors/webgpu-unavailable-error.js';
import { softwareInstallHint, swiftShaderIcdPath } from './device/install-hints.js';

export { swiftShaderIcdPath };

export interface NodeGpuOptions {
  /**
   * Point Vulkan at SwiftShader, the software driver, when `VK_DRIVER_FILES` is not set already.
   * The variable stays set for the process: later WebGPU instances see SwiftShader too.
   */
  software?: boolean;
  /** The SwiftShader ICD manifest (default {@link swiftShaderIcdPath}). */
  swiftShaderIcd?: string;
}

type WebGpuModule = { create(flags: string[]): GPU };

// One Dawn instance per mode for the whole process, kept on `globalThis` (like core's registries),
// so that the ESM and CommonJS builds of this package do not each start their own.
const instancesKey = Symbol.for('reward-lens.webgpu.node-gpu-instances.v1');
const processState = globalThis as unknown as Record<symbol, Map<string, Promise<GPU>> | undefined>;
processState[instancesKey] ??= new Map<string, Promise<GPU>>();
const instances = processState[instancesKey];

/** True in Node (and Node-compatible runtimes), where WebGPU comes from the `webgpu` package. */
export function isNodeRuntime(): boolean {
  return typeof process !== 'undefined' && typeof process.versions?.node === 'string';
}

/**
 * The `GPU` object of Dawn's Node bindings (the `webgpu` package), imported on first use.
 * With `software: true` it first points Vulkan at SwiftShader (see {@link NodeGpuOptions}).
 * One instance per mode is kept for the process.
 *
 * @example
 * const gpu = await getNodeGpu({ software: true });
 * const backend = await createWebGpuBackend(model, { gpu, allowSoftwareAdapter: true });
 */
export function getNodeGpu(options: NodeGpuOptions = {}): Promise<GPU> {
  const key = options.software ? `software:${options.swiftShaderIcd ?? swiftShaderIcdPath}` : 'default';
  let instance = instances.get(key);
  if (!instance) {
    instance = createNodeGpu(options);
    instances.set(key, instance);
    // A failed import may succeed later (after an install): do not keep the rejection.
    instance.catch(() => instances.delete(key));
  }
  return instance;
}

async function createNodeGpu(options: NodeGpuOptions): Promise<GPU> {
  if (!isNodeRuntime()) {
    throw new WebGpuUnavailableError('getNodeGpu() runs in Node only; in a browser use navigator.gpu (a WebGPU-capable browser)');
  }
  if (options.software && !process.env.VK_DRIVER_FILES) {
    const icd = options.swiftShaderIcd ?? swiftShaderIcdPath;
    // Hidden from bundlers: this module is part of the browser build too.
    const fsSpecifier = 'node:fs';
    const { existsSync } = (await import(/* @vite-ignore */ /* webpackIgnore: true */ fsSpecifier)) as typeof import('node:fs');
    // Without the manifest Vulkan finds no driver and the adapter request says so, with the hint.
    if (existsSync(icd)) process.env.VK_DRIVER_FILES = icd;
  }
  const specifier = 'webgpu';
  let module: WebGpuModule;
  try {
    module = (await import(/* @vite-ignore */ /* webpackIgnore: true */ specifier)) as WebGpuModule;
  } catch (error) {
    throw new WebGpuUnavailableError(
      `the "webgpu" package (Dawn for Node) could not be loaded: install it next to @reward-lens/backend-webgpu (it ships prebuilt binaries). ${softwareInstallHint}`,
      { cause: error },
    );
  }
  return module.create([]);
}
