import { BackendContractError, type CacheHandleV1 } from '@reward-lens/spec';
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
 * A cache buffer and the handles sharing it. Forward passes only read a past (they copy it into
 * their own attention buffers), so a buffer is never written after the forward that made it, and
 * forks can share it: the last handle released destroys it.
 */
class SharedCacheBuffer {
  holders = 1;
  constructor(readonly buffer: GPUBuffer) {}
}

/**
 * The rotated keys and the values of a scored prefix, kept in one GPU buffer. `fork()` is O(1):
 * the fork shares the (read-only) buffer; `release()` drops this handle's share, and the buffer
 * is destroyed once no handle holds it.
 */
export class WebGpuCacheHandle implements CacheHandleV1 {
  readonly specificationVersion = 'v1' as const;
  readonly owner: CacheOwner;
  readonly length: number;
  readonly layout: CacheLayout;
  #shared: SharedCacheBuffer | null;

  constructor(owner: CacheOwner, buffer: GPUBuffer | SharedCacheBuffer, length: number, layout: CacheLayout) {
    this.owner = owner;
    this.#shared = buffer instanceof SharedCacheBuffer ? buffer : new SharedCacheBuffer(buffer);
    this.length = length;
    this.layout = layout;
  }

  get released(): boolean {
    return this.#shared === null;
  }

  /** The buffer, or a contract error once released. */
  buffer(): GPUBuffer {
    if (this.#shared === null) throw new BackendContractError(this.owner.name, 'a released cache handle was used');
    return this.#shared.buffer;
  }

  fork(): CacheHandleV1 {
    if (this.#shared === null) throw new BackendContractError(this.owner.name, 'cannot fork a released cache handle');
    this.owner.runtime.assertAlive();
    this.#shared.holders++;
    return new WebGpuCacheHandle(this.owner, this.#shared, this.length, this.layout);
  }

  release(): void {
    const shared = this.#shared;
    this.#shared = null;
    if (shared !== null && --shared.holders === 0) shared.buffer.destroy();
  }
}
