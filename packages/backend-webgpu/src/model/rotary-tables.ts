import type { GpuRuntime } from '../device/gpu-runtime.js';
import { BufferUsage } from '../device/gpu-constants.js';

/**
 * Rotary cosines and sines `[positions, headDim/2]`: angles `position * theta^(-2i/headDim)`
 * computed in float64 and stored as float32, exactly as backend-tiny builds them (so both
 * backends rotate by the same float32 numbers).
 */
export function createRotaryTables(headDim: number, positions: number, theta: number): { cos: Float32Array; sin: Float32Array } {
  const halfDim = headDim / 2;
  const cos = new Float32Array(positions * halfDim);
  const sin = new Float32Array(positions * halfDim);
  const inverseFrequencies = Array.from({ length: halfDim }, (_, index) => theta ** ((-2 * index) / headDim));
  for (let position = 0; position < positions; position++) {
    for (let index = 0; index < halfDim; index++) {
      const angle = position * inverseFrequencies[index]!;
      cos[position * halfDim + index] = Math.cos(angle);
      sin[position * halfDim + index] = Math.sin(angle);
    }
  }
  return { cos, sin };
}

/** Positions the GPU tables hold at first (or the model's, when fewer). */
const initialCapacity = 1024;

/**
 * The rotary tables on the GPU, grown on demand (doubling, up to the model's `maxPositions`), as
 * backend-tiny's are: a config declaring `max_position_embeddings: 1e12` costs nothing until such
 * positions are scored, instead of a buffer for every declared position at load.
 */
export class GpuRotaryTables {
  #cos: GPUBuffer;
  #sin: GPUBuffer;
  #capacity: number;

  constructor(
    private readonly runtime: GpuRuntime,
    private readonly headDim: number,
    private readonly maxPositions: number,
    private readonly theta: number,
  ) {
    this.#capacity = Math.min(initialCapacity, maxPositions);
    [this.#cos, this.#sin] = this.#upload(this.#capacity);
  }

  get cos(): GPUBuffer {
    return this.#cos;
  }

  get sin(): GPUBuffer {
    return this.#sin;
  }

  /** Positions the tables hold now. */
  get capacity(): number {
    return this.#capacity;
  }

  get byteLength(): number {
    return this.#cos.size + this.#sin.size;
  }

  /**
   * Makes the tables hold positions `0 .. positions - 1`. Call before encoding work that reads
   * them: passes already submitted keep the buffers they were encoded with (WebGPU frees a
   * destroyed buffer only after the work using it is done).
   */
  ensure(positions: number): void {
    if (positions <= this.#capacity) return;
    const capacity = Math.min(this.maxPositions, Math.max(positions, 2 * this.#capacity));
    const [cos, sin] = this.#upload(capacity);
    this.#cos.destroy();
    this.#sin.destroy();
    [this.#cos, this.#sin, this.#capacity] = [cos, sin, capacity];
  }

  destroy(): void {
    this.#cos.destroy();
    this.#sin.destroy();
  }

  #upload(positions: number): [GPUBuffer, GPUBuffer] {
    const tables = createRotaryTables(this.headDim, positions, this.theta);
    const usage = BufferUsage.STORAGE | BufferUsage.COPY_SRC;
    return [this.runtime.uploadBuffer('rotary cos', tables.cos, usage), this.runtime.uploadBuffer('rotary sin', tables.sin, usage)];
  }
}
