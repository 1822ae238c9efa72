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
 * shared WebAssembly memories (each at most 4 GiB, less the 512 MiB left to scratch), each laid
 * out as backend-tiny's heap lays its own out (word 0 is the next free address in 16-byte units,
 * atomically bumped; nothing below byte 16), so backend-tiny adopts them and runs its kernels
 * over the weights without copying them, and any other backend reads them as the plain typed
 * arrays they are. A tensor that does not fit in the last memory goes to a new one.
 */
export interface WeightArena {
  /** The first memory. */
  readonly memory: ArenaMemory;
  /** Every memory, in the order they were made (a model past one memory's room spans several). */
  readonly memories: readonly ArenaMemory[];
  /** A zeroed `Float32Array` of `length` values in the arena, or undefined when no memory can hold it (the caller then allocates its own). */
  allocate(length: number): Float32Array | undefined;
  /** The same for `byteLength` bytes (a quantized tensor's region), 16-byte aligned. */
  allocateBytes(byteLength: number): Uint8Array | undefined;
}

const placements = processWide('weight-arena-placements.v1', () => new WeakMap<ArrayBufferView, ArenaPlacement>());

/** Where an arena placed `tensor` (an array `allocate` or `allocateBytes` gave), or undefined when it is not an arena's. */
export function arenaPlacement(tensor: Float32Array | Uint8Array): ArenaPlacement | undefined {
  return placements.get(tensor);
}

/** A new shared memory laid out as a heap (its allocator's next free address in word 0), or undefined where the platform has none. */
function newArenaMemory(): ArenaMemory | undefined {
  try {
    if (typeof WebAssembly !== 'object' || typeof SharedArrayBuffer !== 'function') return undefined;
    const memory = new WebAssembly.Memory({ initial: 1, maximum: MAXIMUM_PAGES, shared: true });
    if (!(memory.buffer instanceof SharedArrayBuffer)) return undefined;
    Atomics.store(new Int32Array(memory.buffer, 0, 4), 0, FIRST_ADDRESS / 16);
    return memory;
  } catch {
    return undefined;
  }
}

/** The most bytes of weights one memory of the arena holds: 4 GiB less the scratch kept. */
const ROOM_BYTES = MAXIMUM_PAGES * PAGE_BYTES - SCRATCH_RESERVE_BYTES;

/**
 * A new arena, or undefined where the platform cannot make shared WebAssembly memories (a page
 * that is not cross-origin isolated): the loader then allocates plain arrays, as before.
 */
export function createWeightArena(options: { roomBytes?: number } = {}): WeightArena | undefined {
  // `roomBytes`: the bytes of weights each memory takes (default and most 3.5 GiB); smaller, a small model spans several memories (tests).
  const room = Math.min(ROOM_BYTES, options.roomBytes ?? ROOM_BYTES);
  const first = newArenaMemory();
  if (first === undefined) return undefined;
  const memories: ArenaMemory[] = [first];
  // A memory that could not grow (the process is out of memory) ends the arena: later tensors are the caller's own.
  let full = false;
  const reserveIn = (memory: ArenaMemory, bytes: number): number | undefined => {
    const state = new Int32Array(memory.buffer, 0, 4);
    const address = Atomics.load(state, 0) * 16;
    const end = address + bytes;
    if (end > room) return undefined;
    try {
      if (memory.buffer.byteLength < end) memory.grow(Math.ceil((end - memory.buffer.byteLength) / PAGE_BYTES));
    } catch {
      full = true;
      return undefined;
    }
    Atomics.store(state, 0, end / 16);
    return address;
  };
  const reserve = (byteLength: number): { memory: ArenaMemory; address: number } | undefined => {
    const bytes = Math.ceil(byteLength / 16) * 16;
    if (full || bytes > room - FIRST_ADDRESS) return undefined;
    let memory = memories[memories.length - 1]!;
    let address = reserveIn(memory, bytes);
    if (address === undefined && !full) {
      const next = newArenaMemory();
      if (next === undefined) return undefined;
      memories.push(next);
      memory = next;
      address = reserveIn(memory, bytes);
    }
    return address === undefined ? undefined : { memory, address };
  };
  const placed = <View extends Float32Array | Uint8Array>(view: View, memory: ArenaMemory, address: number): View => {
    placements.set(view, { memory, address });
    return view;
  };
  return {
    memory: first,
    memories,
    allocate(length) {
      const at = reserve(length * 4);
      return at === undefined ? undefined : placed(new Float32Array(at.memory.buffer, at.address, length), at.memory, at.address);
    },
    allocateBytes(byteLength) {
      const at = reserve(byteLength);
      return at === undefined ? undefined : placed(new Uint8Array(at.memory.buffer, at.address, byteLength), at.memory, at.address);
    },
  };
}
