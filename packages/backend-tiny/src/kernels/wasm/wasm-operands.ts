import type { WasmHeap } from './wasm-heap.js';

/**
 * Addresses of each operand in `heap` (0 for an absent one; a resident array where it is; others
 * copied into scratch), then of an output of `outputFloats` and of each of `extraFloats` in
 * scratch: what a product's kernel call is given.
 */
export function locateOperands(
  heap: WasmHeap,
  operands: readonly [array: Float32Array | undefined, length: number][],
  outputFloats: number,
  extraFloats: readonly number[] = [],
): number[] {
  const sizes: number[] = [];
  const copied: [index: number, array: Float32Array, length: number][] = [];
  const addresses = operands.map(([array, length], index) => {
    if (array === undefined) return 0;
    const resident = heap.residentAddress(array);
    if (resident !== undefined) return resident;
    copied.push([index, array, length]);
    sizes.push(length);
    return -1;
  });
  sizes.push(outputFloats, ...extraFloats);
  const placed = heap.scratch(sizes);
  copied.forEach(([index, array, length], slot) => {
    addresses[index] = placed[slot]!;
    heap.write(placed[slot]!, array, length);
  });
  addresses.push(...placed.slice(copied.length));
  return addresses;
}
