const PAGE_BYTES = 65_536;
/** The most pages a 32-bit WebAssembly memory has: 4 GiB. */
export const MAXIMUM_WASM_PAGES = 65_536;
/**
 * Nothing is placed below this address: the kernels read an address of 0 as "none", and the
 * first 16 bytes hold the allocator's state (the next free address, in 16-byte units), where
 * every thread that shares the memory finds it.
 */
const FIRST_ADDRESS = 16;
/** The smallest scratch arena a heap takes: most calls fit, so arenas are rarely replaced. */
const MINIMUM_ARENA_BYTES = 256 * 1024;

const alignUp = (bytes: number) => Math.ceil(bytes / 16) * 16;

/** The memory could not grow to what a call needs: past its cap or the engine's limit. */
export class WasmMemoryLimitError extends RangeError {
  constructor(bytes: number, options: { cause?: unknown }) {
    super(`cannot grow WebAssembly memory to ${(bytes / 2 ** 20).toFixed(1)} MiB`, options);
    this.name = 'WasmMemoryLimitError';
  }
}

/** What a heap holds resident: float32 weights, or a quantized matrix's byte region. */
export type ResidentArray = Float32Array | Uint8Array;

export interface WasmHeapOptions {
  /** Caps the memory (rounded down to 64 KiB pages); by default the engine's limit. */
  maximumBytes?: number | undefined;
  /**
   * A shared memory (its buffer a `SharedArrayBuffer`): worker threads import the same memory,
   * so the weights in it are held once for every thread, and views of it never detach.
   */
  shared?: boolean | undefined;
}

/** Whether this platform can make shared WebAssembly memories (cross-origin isolated pages and Node can). */
export function sharedWasmMemoryAvailable(): boolean {
  if (typeof SharedArrayBuffer !== 'function' || typeof WebAssembly !== 'object') return false;
  try {
    return new WebAssembly.Memory({ initial: 1, maximum: 1, shared: true }).buffer instanceof SharedArrayBuffer;
  } catch {
    return false;
  }
}

/**
 * One WebAssembly memory, laid out as resident arrays (weights, placed once) and per-thread
 * scratch arenas, all handed out by one bump allocator whose state sits in the memory itself
 * (atomically updated, so threads sharing the memory never overlap). The memory only grows (a
 * WebAssembly memory cannot shrink): to the weights plus the largest arena each thread needed.
 *
 * A heap is one thread's view: its own arena, its own map of resident arrays. `WasmHeap.over`
 * gives another thread's view of a shared memory, where the weights are adopted, not copied.
 */
export class WasmHeap {
  readonly memory: WebAssembly.Memory;
  readonly shared: boolean;
  /** The most bytes the memory can grow to: its cap, or the engine's 4 GiB. */
  readonly maximumBytes: number;
  #floats: Float32Array;
  #state: Int32Array;
  readonly #resident = new Map<ResidentArray, number>();
  readonly #adopted = new Set<ResidentArray>();
  #arenaStart = 0;
  #arenaEnd = 0;

  /**
   * A new memory laid out from scratch, or with `memory`, this thread's view of a shared memory
   * another heap laid out (its allocator state is in the memory): the weights are then adopted
   * (`adopt`), not copied.
   */
  constructor(options: WasmHeapOptions | { memory: WebAssembly.Memory } = {}) {
    if ('memory' in options) {
      this.memory = options.memory;
      this.shared = true;
      this.maximumBytes = MAXIMUM_WASM_PAGES * PAGE_BYTES;
    } else {
      const { maximumBytes } = options;
      const maximum = maximumBytes === undefined ? undefined : Math.max(1, Math.min(MAXIMUM_WASM_PAGES, Math.floor(maximumBytes / PAGE_BYTES)));
      this.maximumBytes = (maximum ?? MAXIMUM_WASM_PAGES) * PAGE_BYTES;
      this.shared = options.shared === true;
      this.memory = this.shared
        ? new WebAssembly.Memory({ initial: 1, maximum: maximum ?? MAXIMUM_WASM_PAGES, shared: true })
        : new WebAssembly.Memory(maximum === undefined ? { initial: 1 } : { initial: 1, maximum });
    }
    this.#floats = new Float32Array(this.memory.buffer);
    this.#state = new Int32Array(this.memory.buffer, 0, 4);
    if (!('memory' in options)) Atomics.store(this.#state, 0, FIRST_ADDRESS / 16);
  }

  /** A view of the whole memory, renewed when it grew (a growth detaches an unshared buffer). */
  get floats(): Float32Array {
    const { buffer } = this.memory;
    if (buffer.byteLength !== this.#floats.byteLength || (!this.shared && this.#floats.buffer !== buffer)) this.#floats = new Float32Array(buffer);
    return this.#floats;
  }

  /**
   * `bytes` at a 16-byte aligned address no other allocation (of any thread) overlaps, with the
   * memory grown to hold them. Throws `WasmMemoryLimitError` past the memory's cap.
   */
  allocate(bytes: number): number {
    const units = Math.ceil(bytes / 16);
    const address = Atomics.add(this.#currentState(), 0, units) * 16;
    this.#reserve(address + units * 16);
    return address;
  }

  /** Bytes allocated so far (the allocator's next free address). */
  get allocatedBytes(): number {
    return Atomics.load(this.#currentState(), 0) * 16;
  }

  /** Copies `array` in once; later calls with the same array (by identity) are no-ops. */
  upload(array: ResidentArray): void {
    if (this.#resident.has(array)) return;
    const address = this.allocate(array.byteLength);
    if (array instanceof Float32Array) this.floats.set(array, address / 4);
    else new Uint8Array(this.memory.buffer, address, array.byteLength).set(array);
    this.#resident.set(array, address);
  }

  /** Declares `view`, a view of this very memory at `address`, resident: products read it where it is. */
  adopt(view: ResidentArray, address: number): void {
    this.#resident.set(view, address);
    this.#adopted.add(view);
  }

  /** Copies an uploaded array's contents in again (after they changed); adopted views and other arrays are ignored. */
  refresh(array: Float32Array): void {
    const address = this.#resident.get(array);
    if (address !== undefined && !this.#adopted.has(array)) this.floats.set(array, address / 4);
  }

  /** The byte address of a resident array, or undefined. */
  residentAddress(array: ResidentArray): number | undefined {
    return this.#resident.get(array);
  }

  /**
   * One call's scratch: a 16-byte aligned address for each size (in floats), in this heap's own
   * arena, valid until this heap's next `scratch` call. The arena grows (in place when it is the
   * memory's last allocation, else it moves) to the largest call's need.
   */
  scratch(sizes: readonly number[]): number[] {
    let total = 0;
    for (const size of sizes) total += alignUp(size * 4);
    if (this.#arenaStart + total > this.#arenaEnd) this.#growArena(total);
    const addresses: number[] = [];
    let next = this.#arenaStart;
    for (const size of sizes) {
      addresses.push(next);
      next += alignUp(size * 4);
    }
    return addresses;
  }

  /** Copies `bytes` to `address`. */
  writeBytes(address: number, bytes: Uint8Array): void {
    new Uint8Array(this.memory.buffer, address, bytes.byteLength).set(bytes);
  }

  /** Copies `length` floats of `array` to `address`. */
  write(address: number, array: Float32Array, length = array.length): void {
    this.floats.set(length === array.length ? array : array.subarray(0, length), address / 4);
  }

  /** Copies `length` floats at `address` into `target` from `targetOffset`. */
  read(address: number, length: number, target: Float32Array, targetOffset = 0): void {
    const floats = this.floats;
    target.set(floats.subarray(address / 4, address / 4 + length), targetOffset);
  }

  #growArena(needed: number): void {
    const size = alignUp(Math.max(needed, MINIMUM_ARENA_BYTES, 2 * (this.#arenaEnd - this.#arenaStart)));
    const state = this.#currentState();
    // The arena is the memory's last allocation: extend it where it is.
    if (this.#arenaEnd > 0 && Atomics.compareExchange(state, 0, this.#arenaEnd / 16, (this.#arenaStart + size) / 16) === this.#arenaEnd / 16) {
      this.#reserve(this.#arenaStart + size);
      this.#arenaEnd = this.#arenaStart + size;
      return;
    }
    this.#arenaStart = this.allocate(size);
    this.#arenaEnd = this.#arenaStart + size;
  }

  #currentState(): Int32Array {
    if (!this.shared && this.#state.buffer !== this.memory.buffer) this.#state = new Int32Array(this.memory.buffer, 0, 4);
    return this.#state;
  }

  #reserve(bytes: number): void {
    while (this.memory.buffer.byteLength < bytes) {
      const missing = bytes - this.memory.buffer.byteLength;
      try {
        this.memory.grow(Math.ceil(missing / PAGE_BYTES));
      } catch (error) {
        // Another thread may have grown it meanwhile; only a memory still too small is a failure.
        if (this.memory.buffer.byteLength >= bytes) break;
        throw new WasmMemoryLimitError(bytes, { cause: error });
      }
    }
  }
}
