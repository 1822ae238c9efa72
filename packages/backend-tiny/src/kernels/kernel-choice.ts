import { BackendResolutionError } from '@reward-lens/core/internal';
import { scalarKernels, type KernelSet } from './kernel-set.js';
import { WasmMemoryLimitError } from './wasm/wasm-heap.js';
import { createWasmSimdKernels, wasmSimdUnavailableReason } from './wasm/wasm-simd-kernels.js';

/** Which kernels a backend runs on: `'auto'` takes the fastest the platform has. */
export type KernelChoice = 'auto' | 'wasm-simd' | 'scalar';
export type KernelName = Exclude<KernelChoice, 'auto'>;

/** What the platform offers. */
export interface KernelPlatform {
  /** Why the WebAssembly SIMD kernels cannot run, or null when they can. */
  wasmSimdUnavailable: string | null;
}

export type KernelSelection = { kernels: KernelName; note?: string } | { kernels: null; reason: string };

/** Fastest first; `unavailableReason` says why a set cannot run, or null when it can. */
const preference: readonly { name: KernelName; unavailableReason: (platform: KernelPlatform) => string | null }[] = [
  { name: 'wasm-simd', unavailableReason: (platform) => platform.wasmSimdUnavailable },
  { name: 'scalar', unavailableReason: () => null },
];

/**
 * Resolves a choice against a platform, without side effects. `'auto'` falls back to the next
 * kernels in order of preference and says why in `note`; an explicit choice the platform
 * cannot run is not replaced but reported (`kernels: null` with the reason).
 */
export function selectKernels(choice: KernelChoice, platform: KernelPlatform): KernelSelection {
  if (choice !== 'auto') {
    const reason = preference.find((candidate) => candidate.name === choice)!.unavailableReason(platform);
    return reason === null ? { kernels: choice } : { kernels: null, reason };
  }
  const skipped: string[] = [];
  for (const candidate of preference) {
    const reason = candidate.unavailableReason(platform);
    if (reason === null) return skipped.length === 0 ? { kernels: candidate.name } : { kernels: candidate.name, note: skipped.join('; ') };
    skipped.push(`${candidate.name}: ${reason}`);
  }
  throw new Error('unreachable: the scalar kernels are always available');
}

/** The platform this process runs on. */
export function currentKernelPlatform(): KernelPlatform {
  return { wasmSimdUnavailable: wasmSimdUnavailableReason() };
}

export interface KernelOptions {
  /** What the platform offers (default: this process's). */
  platform?: KernelPlatform;
  /** A cap on a WebAssembly set's memory in bytes (default: the engine's, 4 GiB on 64-bit V8). */
  maximumWasmBytes?: number;
}

/**
 * The kernels for one backend, with its `weights` (every matrix and bias of its products)
 * prepared on them, and how they were chosen: `description` is e.g. `wasm-simd`, or after an
 * `'auto'` fallback `scalar (wasm-simd: no WebAssembly SIMD on this platform)`. `'auto'` also
 * falls back when the weights do not fit in WebAssembly memory. An explicit choice that cannot
 * run throws `BackendResolutionError` with the reason. A `KernelSet` is used as it is.
 */
export function createKernels(
  choice: KernelChoice | KernelSet,
  weights: readonly Float32Array[],
  options: KernelOptions = {},
): { kernels: KernelSet; description: string } {
  if (typeof choice !== 'string') {
    for (const tensor of weights) choice.prepareWeights?.(tensor);
    return { kernels: choice, description: choice.name };
  }
  const selection = selectKernels(choice, options.platform ?? currentKernelPlatform());
  const unavailable = (reason: string, cause?: unknown) =>
    new BackendResolutionError(`tiny (kernels: ${choice})`, [{ name: choice, reason }], cause === undefined ? undefined : { cause });
  if (selection.kernels === null) throw unavailable(selection.reason);
  const describe = (name: string, note?: string) => (note === undefined ? name : `${name} (${note})`);
  if (selection.kernels === 'scalar') return { kernels: scalarKernels, description: describe('scalar', selection.note) };

  const kernels = createWasmSimdKernels({ maximumBytes: options.maximumWasmBytes });
  try {
    for (const tensor of weights) kernels.prepareWeights!(tensor);
  } catch (error) {
    if (!(error instanceof WasmMemoryLimitError)) throw error;
    const reason = `the weights do not fit in WebAssembly memory (${error.message})`;
    if (choice !== 'auto') throw unavailable(reason, error);
    return { kernels: scalarKernels, description: describe('scalar', `wasm-simd: ${reason}`) };
  }
  return { kernels, description: describe('wasm-simd', selection.note) };
}
