import type { CacheHolding } from '@reward-lens/spec/internal';
import { BufferUsage } from './device/gpu-constants.js';
import type { GpuRuntime } from './device/gpu-runtime.js';

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
 * A cache buffer as its handles hold it. Forward passes only read a past (they copy it into their
 * own attention buffers), so a buffer is never written after the forward that made it and forks
 * share it; the last handle released destroys it. Forking on a lost device is refused.
 */
export function gpuCacheHolding(buffer: GPUBuffer, runtime: GpuRuntime): CacheHolding<GPUBuffer> {
  let holders = 1;
  return {
    data: buffer,
    hold() {
      runtime.assertAlive();
      holders++;
    },
    drop() {
      if (--holders === 0) buffer.destroy();
    },
  };
}
