/**
 * Keys (already rotated) and values of every layer for a run of tokens, one growable buffer
 * per layer, `[capacity, numKvHeads * headDim]` row-major.
 *
 * Storage is append-only and shared: handles hold a storage and a length, and never see past
 * their length. `committedLength` is the longest length any handle (or in-flight forward)
 * has claimed; a continuation whose past ends exactly there may append in place, any other
 * continuation copies its prefix first (copy-on-extend). So extending never disturbs the
 * handle it extends, forks are O(1), and step-by-step generation appends in amortised O(1).
 */
export class KvStorage {
  keys: Float32Array[];
  values: Float32Array[];
  capacity: number;
  committedLength = 0;

  /** With `shared`, the buffers are `SharedArrayBuffer`s, which worker threads write and read in place. */
  constructor(
    readonly numLayers: number,
    readonly width: number,
    capacity: number,
    readonly shared = false,
  ) {
    this.capacity = Math.max(1, capacity);
    this.keys = Array.from({ length: numLayers }, () => this.#buffer(this.capacity * width));
    this.values = Array.from({ length: numLayers }, () => this.#buffer(this.capacity * width));
  }

  #buffer(floats: number): Float32Array {
    return this.shared ? new Float32Array(new SharedArrayBuffer(floats * 4)) : new Float32Array(floats);
  }

  /** Grows to hold at least `length` tokens (doubling), keeping the first `keep` tokens. */
  ensureCapacity(length: number, keep: number): void {
    if (length <= this.capacity) return;
    let capacity = this.capacity;
    while (capacity < length) capacity *= 2;
    const grow = (old: Float32Array): Float32Array => {
      const buffer = this.#buffer(capacity * this.width);
      buffer.set(old.subarray(0, keep * this.width));
      return buffer;
    };
    this.keys = this.keys.map(grow);
    this.values = this.values.map(grow);
    this.capacity = capacity;
  }

  /** A new storage holding a copy of the first `length` tokens, with room for `capacity`. */
  copyPrefix(length: number, capacity: number): KvStorage {
    const copy = new KvStorage(this.numLayers, this.width, Math.max(capacity, length), this.shared);
    const size = length * this.width;
    for (let layer = 0; layer < this.numLayers; layer++) {
      copy.keys[layer]!.set(this.keys[layer]!.subarray(0, size));
      copy.values[layer]!.set(this.values[layer]!.subarray(0, size));
    }
    copy.committedLength = length;
    return copy;
  }
}
