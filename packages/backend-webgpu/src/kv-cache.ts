import { BackendContractError, type CacheHandleV1 } from '@reward-lens/core/internal';
import { BufferUsage } from './device/gpu-constants.js';
import type { GpuRuntime } from './device/gpu-runtime.js';

/** The backend instance a handle belongs to: its name (for errors) and its device. */
export interface CacheOwner {
  readonly name: string;
  readonly runtime: GpuRuntime;
}

/** Keys and values per token of one layer: `numKvHeads * headDim`. */
export interface CacheLayout {
  numLayers: number;
  kvWidth: number;
}

/**
 * Where layer `layer`'s keys (`part` 0) or values (`part` 1) start in a cache buffer of
 * `length` tokens. The buffer holds `[layer][keys | values][length][kvWidth]` floats.
 */
export function cacheByteOffset(layout: CacheLayout, length: number, layer: number, part: 0 | 1): number {
  return (layer * 2 + part) * length * layout.kvWidth * 4;
}

export function cacheByteLength(layout: CacheLayout, length: number): number {
  return layout.numLayers * 2 * length * layout.kvWidth * 4;
}

export const cacheBufferUsage = BufferUsage.STORAGE | BufferUsage.COPY_SRC | BufferUsage.COPY_DST;

/**
 * The rotated keys and the values of a scored prefix, kept in one GPU buffer that the handle
 * owns. `fork()` copies the buffer on the GPU; `release()` destroys it.
 */
export class WebGpuCacheHandle implements CacheHandleV1 {
  readonly specificationVersion = 'v1' as const;
  readonly owner: CacheOwner;
  readonly length: number;
  readonly layout: CacheLayout;
  #buffer: GPUBuffer | null;

  constructor(owner: CacheOwner, buffer: GPUBuffer, length: number, layout: CacheLayout) {
    this.owner = owner;
    this.#buffer = buffer;
    this.length = length;
    this.layout = layout;
  }

  get released(): boolean {
    return this.#buffer === null;
  }

  /** The buffer, or a contract error once released. */
  buffer(): GPUBuffer {
    if (this.#buffer === null) throw new BackendContractError(this.owner.name, 'a released cache handle was used');
    return this.#buffer;
  }

  fork(): CacheHandleV1 {
    if (this.#buffer === null) throw new BackendContractError(this.owner.name, 'cannot fork a released cache handle');
    const { runtime } = this.owner;
    runtime.assertAlive();
    const copy = runtime.createBuffer('kv cache (fork)', this.#buffer.size, cacheBufferUsage);
    const encoder = runtime.device.createCommandEncoder({ label: 'fork kv cache' });
    encoder.copyBufferToBuffer(this.#buffer, 0, copy, 0, this.#buffer.size);
    runtime.device.queue.submit([encoder.finish()]);
    return new WebGpuCacheHandle(this.owner, copy, this.length, this.layout);
  }

  release(): void {
    this.#buffer?.destroy();
    this.#buffer = null;
  }
}
