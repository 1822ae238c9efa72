import { BackendResolutionError } from '@reward-lens/spec';
import { scalarKernels, type KernelSet } from './kernel-set.js';
import { WasmMemoryLimitError } from './wasm/wasm-heap.js';
import { createWasmSimdKernels, createWasmSimdKernelsAsync, wasmSimdUnavailableReason, wasmSimdUnavailableReasonAsync } from './wasm/wasm-simd-kernels.js';

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

/** The platform this process runs on, for kernels created synchronously. */
export function currentKernelPlatform(): KernelPlatform {
  return { wasmSimdUnavailable: wasmSimdUnavailableReason() };
}

/** The platform this process runs on, for kernels created asynchronously (as a browser's main thread needs). */
export async function currentKernelPlatformAsync(): Promise<KernelPlatform> {
  return { wasmSimdUnavailable: await wasmSimdUnavailableReasonAsync() };
}

export interface KernelOptions {
  /** What the platform offers (default: this process's). */
  platform?: KernelPlatform;
  /** A cap on a WebAssembly set's memory in bytes (default: the engine's, 4 GiB on 64-bit V8). */
  maximumWasmBytes?: number;
}

/** A backend's kernels, its weights prepared on them, and how they were chosen. */
export interface CreatedKernels {
  kernels: KernelSet;
  /** e.g. `wasm-simd`, or after an `'auto'` fallback `scalar (wasm-simd: no WebAssembly SIMD on this platform)`. */
  description: string;
}

/**
 * The kernels for one backend, with its `weights` (every matrix and bias of its products)
 * prepared on them, and how they were chosen. `'auto'` falls back to the next kernels when the
 * platform lacks a set or the weights do not fit in WebAssembly memory, and says why in the
 * description. An explicit choice that cannot run throws `BackendResolutionError` with the
 * reason. A `KernelSet` is used as it is. Compiles the WebAssembly module synchronously, which
 * a browser's main thread may refuse (then `'auto'` takes the scalar kernels): see `createKernelsAsync`.
 */
export function createKernels(choice: KernelChoice | KernelSet, weights: readonly Float32Array[], options: KernelOptions = {}): CreatedKernels {
  if (typeof choice !== 'string') return adoptKernels(choice, weights);
  const selection = selectOrThrow(choice, options.platform ?? currentKernelPlatform());
  const kernels = selection.kernels === 'wasm-simd' ? createWasmSimdKernels({ maximumBytes: options.maximumWasmBytes }) : scalarKernels;
  return prepareKernels(choice, selection, kernels, weights);
}

/**
 * `createKernels` with the WebAssembly module compiled and instantiated asynchronously, which
 * every thread allows: the way to the SIMD kernels on a browser's main thread.
 */
export async function createKernelsAsync(
  choice: KernelChoice | KernelSet,
  weights: readonly Float32Array[],
  options: KernelOptions = {},
): Promise<CreatedKernels> {
  if (typeof choice !== 'string') return adoptKernels(choice, weights);
  const selection = selectOrThrow(choice, options.platform ?? (await currentKernelPlatformAsync()));
  const kernels = selection.kernels === 'wasm-simd' ? await createWasmSimdKernelsAsync({ maximumBytes: options.maximumWasmBytes }) : scalarKernels;
  return prepareKernels(choice, selection, kernels, weights);
}

function adoptKernels(kernels: KernelSet, weights: readonly Float32Array[]): CreatedKernels {
  for (const tensor of weights) kernels.prepareWeights?.(tensor);
  return { kernels, description: kernels.name };
}

const unavailable = (choice: KernelChoice, reason: string, cause?: unknown) =>
  new BackendResolutionError(`tiny (kernels: ${choice})`, [{ name: choice, reason }], cause === undefined ? undefined : { cause });

const withNote = (name: string, note?: string) => (note === undefined ? name : `${name} (${note})`);

function selectOrThrow(choice: KernelChoice, platform: KernelPlatform): { kernels: KernelName; note?: string } {
  const selection = selectKernels(choice, platform);
  if (selection.kernels === null) throw unavailable(choice, selection.reason);
  return selection;
}

/** What both ways of creating kernels share once the selected set exists: uploading the weights. */
function prepareKernels(
  choice: KernelChoice,
  selection: { kernels: KernelName; note?: string },
  kernels: KernelSet,
  weights: readonly Float32Array[],
): CreatedKernels {
  try {
    for (const tensor of weights) kernels.prepareWeights?.(tensor);
  } catch (error) {
    if (!(error instanceof WasmMemoryLimitError)) throw error;
    const reason = `the weights do not fit in WebAssembly memory (${error.message})`;
    if (choice !== 'auto') throw unavailable(choice, reason, error);
    return { kernels: scalarKernels, description: withNote('scalar', `wasm-simd: ${reason}`) };
  }
  return { kernels, description: withNote(selection.kernels, selection.note) };
}
