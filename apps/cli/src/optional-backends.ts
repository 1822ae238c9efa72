import type { BackendRegistration, WeightDtypeV1 } from '@reward-lens/core';
import { packageVersion } from './package-version.js';

/**
 * A backend whose package the CLI does not install: onnx-node (onnxruntime-node), onnx-web
 * (onnxruntime-web) and webgpu (Dawn) weigh hundreds of megabytes, so they are optional peer
 * dependencies. The CLI registers each one lazily: its package is imported only when `--backend`
 * names it or `auto` considers it, and a missing package is a reason to skip it, not a crash.
 */
export interface OptionalBackend {
  /** The registration's name (`--backend <name>`). */
  name: string;
  packageName: string;
  /** The package's own priority, known before the package is loaded (a test checks they agree). */
  priority: number;
  explicitOnly?: boolean;
  /** The weight dtypes the package's registration holds, known before it is loaded (`resolveBackend` checks them first). */
  dtypes?: readonly WeightDtypeV1[];
  /** The source kinds it runs, known before it is loaded (which files of a folder it is handed: `readsWeightsOverGraph`, `readsDecoderFolders`). */
  sourceKinds: readonly string[];
  /** Imports the package and returns its registration. */
  load(): Promise<BackendRegistration>;
}

// Both WebGPU registrations come from one package and hold the same dtypes.
const webGpu = { packageName: '@reward-lens/backend-webgpu', dtypes: ['fp32', 'fp16', 'bf16', 'q8', 'q4'], sourceKinds: ['decoder'] } as const;

export const optionalBackends: readonly OptionalBackend[] = [
  { name: 'webgpu', ...webGpu, priority: 30, load: async () => (await import('@reward-lens/backend-webgpu')).webGpuBackendRegistration },
  {
    name: 'webgpu-software',
    ...webGpu,
    priority: 5,
    explicitOnly: true,
    load: async () => (await import('@reward-lens/backend-webgpu')).webGpuSoftwareBackendRegistration,
  },
  {
    name: 'onnx-node',
    packageName: '@reward-lens/backend-onnx-node',
    priority: 20,
    dtypes: ['fp32', 'fp16', 'q8', 'q4'],
    sourceKinds: ['onnx', 'decoder', 'decoder-folder'],
    load: async () => (await import('@reward-lens/backend-onnx-node')).onnxNodeBackendRegistration,
  },
  {
    name: 'onnx-web',
    packageName: '@reward-lens/backend-onnx-web',
    priority: 15,
    dtypes: ['fp32', 'fp16', 'q8', 'q4'],
    sourceKinds: ['onnx', 'decoder'],
    load: async () => (await import('@reward-lens/backend-onnx-web')).onnxWebBackendRegistration,
  },
];

/** The command that installs a backend's package, at the CLI's version (the packages are released together). */
export function installCommand(packageName: string): string {
  const version = packageVersion();
  return `npm install ${packageName}${/^\d+\.\d+\.\d+/.test(version) ? `@${version}` : ''}`;
}

/** True when `error` says that `packageName` itself cannot be found (not one of its own dependencies). */
export function isPackageMissing(error: unknown, packageName: string): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  if (code !== 'ERR_MODULE_NOT_FOUND' && code !== 'MODULE_NOT_FOUND') return false;
  const message = error instanceof Error ? error.message : String(error);
  // Node: "Cannot find package '<name>' imported from ..." (ESM), "Cannot find module '<name>'" (CommonJS).
  return message.startsWith(`Cannot find package '${packageName}'`) || message.startsWith(`Cannot find module '${packageName}'`);
}
