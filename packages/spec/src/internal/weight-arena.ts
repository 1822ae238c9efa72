import { processWide } from '../process-wide.js';

const PAGE_BYTES = 65_536;
/** A 32-bit WebAssembly memory's most pages: 4 GiB. */
const MAXIMUM_PAGES = 65_536;
/**
 * Bytes at the top of the memory the arena leaves to backend-tiny's scratch (the activations
 * its kernels copy in), so that a full arena still runs: 512 MiB of the 4 GiB.
 */
const SCRATCH_RESERVE_BYTES = 512 * 2 ** 20;
/** Bytes 0..15 hold the allocator's state; nothing is placed below. */
const FIRST_ADDRESS = 16;

/**
 * The arena's memory, as its users see it: a `WebAssembly.Memory` (shared). Typed structurally,
 * so that a consumer without the DOM library's or Node's WebAssembly types still typechecks.
 */
export interface ArenaMemory {
  readonly buffer: ArrayBufferLike;
  grow(pages: number): number;
}

/** Where an arena placed a tensor: the memory and the byte address of its first value. */
export interface ArenaPlacement {
  readonly memory: ArenaMemory;
  readonly address: number;
}

/**
 * Memory a loader reads a model's tensors into so that a backend can take them where they lie:
 * one shared WebAssembly memory (at most 4 GiB), laid out as backend-tiny's heap lays its own out
 * (word 0 is the next free address in 16-byte units, atomically bumped; nothing below byte 16),
 * so backend-tiny adopts the memory and runs its kernels over the weights without copying them,
 * and any other backend reads them as the plain `Float32Array`s they are.
 */
export interface WeightArena {
  readonly memory: ArenaMemory;
  /** A zeroed `Float32Array` of `length` values in the arena, or undefined when the memory cannot grow to hold it (the caller then allocates its own). */
  allocate(length: number): Float32Array | undefined;
  /** The same for `byteLength` bytes (a quantized tensor's region), 16-byte aligned, or undefined when the memory cannot grow to hold them. */
  allocateBytes(byteLength: number): Uint8Array | undefined;
}

const placements = processWide('weight-arena-placements.v1', () => new WeakMap<ArrayBufferView, ArenaPlacement>());

/** Where an arena placed `tensor` (an array `allocate` or `allocateBytes` gave), or undefined when it is not an arena's. */
export function arenaPlacement(tensor: Float32Array | Uint8Array): ArenaPlacement | undefined {
  return placements.get(tensor);
}

/**
 * A new arena, or undefined where the platform cannot make shared WebAssembly memories (a page
 * that is not cross-origin isolated): the loader then allocates plain arrays, as before.
 */
export function createWeightArena(): WeightArena | undefined {
  let memory: ArenaMemory;
  try {
    if (typeof WebAssembly !== 'object' || typeof SharedArrayBuffer !== 'function') return undefined;
    memory = new WebAssembly.Memory({ initial: 1, maximum: MAXIMUM_PAGES, shared: true });
    if (!(memory.buffer instanceof SharedArrayBuffer)) return undefined;
  } catch {
    return undefined;
  }
  const state = new Int32Array(memory.buffer, 0, 4);
  Atomics.store(state, 0, FIRST_ADDRESS / 16);
  let full = false;
  const reserve = (byteLength: number): number | undefined => {
    if (full) return undefined;
    const bytes = Math.ceil(byteLength / 16) * 16;
    const address = Atomics.load(state, 0) * 16;
    const end = address + bytes;
    try {
      if (end > MAXIMUM_PAGES * PAGE_BYTES - SCRATCH_RESERVE_BYTES) throw new RangeError('past the room for weights');
      if (memory.buffer.byteLength < end) memory.grow(Math.ceil((end - memory.buffer.byteLength) / PAGE_BYTES));
    } catch {
      // Full: every later tensor is the caller's own (so the arena's tensors stay in load order).
      full = true;
      return undefined;
    }
    Atomics.store(state, 0, end / 16);
    return address;
  };
  const placed = <View extends Float32Array | Uint8Array>(view: View, address: number): View => {
    placements.set(view, { memory, address });
    return view;
  };
  return {
    memory,
    allocate(length) {
      const address = reserve(length * 4);
      return address === undefined ? undefined : placed(new Float32Array(memory.buffer, address, length), address);
    },
    allocateBytes(byteLength) {
      const address = reserve(byteLength);
      return address === undefined ? undefined : placed(new Uint8Array(memory.buffer, address, byteLength), address);
    },
  };
}
