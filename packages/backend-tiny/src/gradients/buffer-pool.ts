/**
 * Float32 buffers reused from one pass to the next: a training loop runs the same shapes again
 * and again, and fresh typed arrays of tens of megabytes cost page faults and garbage
 * collection on every step. A buffer handed out stays valid until `recycle()`; the pool keeps
 * what the largest pass needed (`clear()` drops it).
 */
export class BufferPool {
  #free: Float32Array[] = [];
  #used: Float32Array[] = [];

  /** `length` floats, zeroed unless `zero` is false. */
  floats(length: number, zero = true): Float32Array {
    let best = -1;
    for (let index = 0; index < this.#free.length; index++) {
      const capacity = this.#free[index]!.length;
      // Reuse a buffer no more than twice the size asked for, the snuggest one.
      if (capacity >= length && capacity <= 2 * length + 1024 && (best < 0 || capacity < this.#free[best]!.length)) best = index;
    }
    let buffer: Float32Array;
    if (best >= 0) {
      buffer = this.#free.splice(best, 1)[0]!;
      if (zero) buffer.fill(0, 0, length);
    } else {
      buffer = new Float32Array(length);
    }
    this.#used.push(buffer);
    return buffer.length === length ? buffer : buffer.subarray(0, length);
  }

  /** Every buffer handed out becomes free again. */
  recycle(): void {
    this.#free.push(...this.#used);
    this.#used = [];
  }

  clear(): void {
    this.#free = [];
    this.#used = [];
  }
}
