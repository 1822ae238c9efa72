import { isNodeRuntime } from '../node-gpu.js';

/** The device files a hardware GPU driver opens on Linux: DRM render nodes, NVIDIA's devices, WSL's GPU. */
function isGpuDeviceFile(directory: 'dev' | 'dri', name: string): boolean {
  return directory === 'dri' ? name.startsWith('renderD') : /^nvidia\d+$/.test(name) || name === 'dxg';
}

/**
 * Whether a Linux machine has a GPU a hardware WebGPU adapter could run on, told from its device
 * files (`/dev/dri/renderD*`, `/dev/nvidia*`, `/dev/dxg`) without starting Dawn. Dawn's adapter
 * probe prints Vulkan and XDG errors on stderr from native code on a headless machine, so `'auto'`
 * asks this first. `undefined` where it cannot be told this way (another system, a browser):
 * then the adapter request decides.
 */
export async function linuxGpuDevicePresent(deviceRoot = '/dev'): Promise<boolean | undefined> {
  if (!isNodeRuntime() || process.platform !== 'linux') return undefined;
  // Hidden from bundlers: this module is part of the browser build too.
  const fsSpecifier = 'node:fs/promises';
  const { readdir } = (await import(/* @vite-ignore */ /* webpackIgnore: true */ fsSpecifier)) as typeof import('node:fs/promises');
  const list = (path: string) => readdir(path).catch((): string[] => []);
  const [devices, dri] = await Promise.all([list(deviceRoot), list(`${deviceRoot}/dri`)]);
  return devices.some((name) => isGpuDeviceFile('dev', name)) || dri.some((name) => isGpuDeviceFile('dri', name));
}
