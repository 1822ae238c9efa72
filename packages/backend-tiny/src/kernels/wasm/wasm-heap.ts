const PAGE_BYTES = 65_536;
/** Nothing is placed below this address: the kernels read an address of 0 as "none". */
const FIRST_ADDRESS = 16;

const alignUp = (bytes: number) => (bytes + 15) & ~15;

/** The memory could not grow to what a call needs: past its cap or the engine's limit. */
export class WasmMemoryLimitError extends RangeError {
  constructor(bytes: number, options: { cause?: unknown }) {
    super(`cannot grow WebAssembly memory to ${(bytes / 2 ** 20).toFixed(1)} MiB`, options);
    this.name = 'WasmMemoryLimitError';
  }
}

/**
 * One WebAssembly memory, laid out as resident arrays (weights, uploaded once, at the bottom)
 * and per-call scratch above them. The memory only grows (a WebAssembly memory cannot shrink):
 * to the weights plus the largest call's scratch.
 */
export class WasmHeap {
  readonly memory: WebAssembly.Memory;
  #floats: Float32Array;
  readonly #resident = new Map<Float32Array, number>();
  #residentEnd = FIRST_ADDRESS;

  /** `maximumBytes` caps the memory (rounded down to 64 KiB pages); by default the engine's limit. */
  constructor(maximumBytes?: number) {
    const maximum = maximumBytes === undefined ? undefined : Math.max(1, Math.floor(maximumBytes / PAGE_BYTES));
    this.memory = new WebAssembly.Memory(maximum === undefined ? { initial: 1 } : { initial: 1, maximum });
    this.#floats = new Float32Array(this.memory.buffer);
  }

  /** A view of the whole memory; renewed after every growth (which detaches the old buffer). */
  get floats(): Float32Array {
    return this.#floats;
  }

  /** Copies `array` in once; later calls with the same array (by identity) are no-ops. */
  upload(array: Float32Array): void {
    if (this.#resident.has(array)) return;
    const address = alignUp(this.#residentEnd);
    this.#reserve(address + array.byteLength);
    this.#floats.set(array, address / 4);
    this.#resident.set(array, address);
    this.#residentEnd = address + array.byteLength;
  }

  /** Copies an uploaded array's contents in again (after they changed); other arrays are ignored. */
  refresh(array: Float32Array): void {
    const address = this.#resident.get(array);
    if (address !== undefined) this.#floats.set(array, address / 4);
  }

  /** The byte address of an uploaded array, or undefined. */
  residentAddress(array: Float32Array): number | undefined {
    return this.#resident.get(array);
  }

  /**
   * Lays out one call's scratch: `place(floats)` returns a 16-byte aligned address above the
   * resident arrays, `done()` grows the memory to hold everything placed. Scratch is valid
   * until the next layout.
   */
  scratch(): { place(floats: number): number; done(): void } {
    let next = alignUp(this.#residentEnd);
    return {
      place: (floats) => {
        const address = next;
        next = alignUp(address + floats * 4);
        return address;
      },
      done: () => this.#reserve(next),
    };
  }

  /** Copies `length` floats of `array` to `address`. */
  write(address: number, array: Float32Array, length = array.length): void {
    this.#floats.set(length === array.length ? array : array.subarray(0, length), address / 4);
  }

  /** Copies `length` floats at `address` into `target` from `targetOffset`. */
  read(address: number, length: number, target: Float32Array, targetOffset = 0): void {
    target.set(this.#floats.subarray(address / 4, address / 4 + length), targetOffset);
  }

  #reserve(bytes: number): void {
    const missing = bytes - this.memory.buffer.byteLength;
    if (missing <= 0) return;
    try {
      this.memory.grow(Math.ceil(missing / PAGE_BYTES));
    } catch (error) {
      throw new WasmMemoryLimitError(bytes, { cause: error });
    }
    this.#floats = new Float32Array(this.memory.buffer);
  }
}
