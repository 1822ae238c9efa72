import { describe, expect, it } from 'vitest';
import { arenaPlacement, createWeightArena } from './weight-arena.js';

describe('createWeightArena', () => {
  it('hands out zeroed, 16-byte aligned, non-overlapping views of one shared memory, each with its placement, and keeps the allocator state in word 0', () => {
    const arena = createWeightArena();
    expect(arena, 'Node makes shared WebAssembly memories').toBeDefined();
    const lengths = [1, 3, 4, 17, 70_000, 5];
    const views = lengths.map((length) => arena!.allocate(length)!);
    let end = 16;
    views.forEach((view, index) => {
      expect(view.length).toBe(lengths[index]);
      expect(view.buffer).toBeInstanceOf(SharedArrayBuffer);
      expect(view.byteOffset % 16).toBe(0);
      expect(view.byteOffset).toBeGreaterThanOrEqual(end);
      expect(view.every((value) => value === 0)).toBe(true);
      expect(arenaPlacement(view)).toEqual({ memory: arena!.memory, address: view.byteOffset });
      end = view.byteOffset + view.byteLength;
      view.fill(index + 1);
    });
    // Writing one view leaves the others as they were (no overlap), across the memory's growth.
    views.forEach((view, index) => expect(view.every((value) => value === index + 1)).toBe(true));
    const state = new Int32Array(arena!.memory.buffer, 0, 1);
    expect(Atomics.load(state, 0) * 16).toBeGreaterThanOrEqual(end);
    expect(arenaPlacement(new Float32Array(4))).toBeUndefined();
  });

  it("gives undefined for a tensor past one memory's room (4 GiB less the scratch kept), and goes on with the next", () => {
    const arena = createWeightArena()!;
    expect(arena.allocate(2 ** 30 + 1)).toBeUndefined();
    expect(arena.allocate(4)).toBeDefined();
  });

  it('puts a tensor that does not fit in the last memory in a new one (untouched pages cost no memory)', () => {
    const arena = createWeightArena()!;
    const sizes = [3 * 2 ** 27, 3 * 2 ** 27, 3 * 2 ** 27, 8]; // 1.5 GiB each: the third does not fit beside two
    const views = sizes.map((length) => arena.allocate(length)!);
    expect(arena.memories).toHaveLength(2);
    expect(views.map((view) => arenaPlacement(view)!.memory)).toEqual([arena.memories[0], arena.memories[0], arena.memories[1], arena.memories[1]]);
    // Each memory keeps its own allocator state, as a heap laid over it reads it.
    expect(Atomics.load(new Int32Array(arena.memories[1]!.buffer, 0, 1), 0) * 16).toBe(views[3]!.byteOffset + 32);
    views[3]!.fill(7);
    expect(views[2]![0]).toBe(0);
  });
});
