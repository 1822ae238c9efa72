import type { DecoderConfig, DecoderModel } from '@reward-lens/spec';
import { arenaPlacement } from '@reward-lens/spec/internal';
import type { WasmHeap } from '../kernels/wasm/wasm-heap.js';

/** Where one tensor lies in a store: its name, byte offset and number of floats. */
export type TensorPlacement = readonly [name: string, byteOffset: number, length: number];

/**
 * A model's weights held once, in memory that every thread can see: a shared WebAssembly
 * memory (the kernels read the weights where they are) or a `SharedArrayBuffer` (the scalar
 * kernels). `model` is the model over the store's arrays: the backend's weights from here on,
 * so the caller's own arrays can be dropped; other threads rebuild it from `placements`.
 */
export interface WeightStore {
  model: DecoderModel;
  placements: TensorPlacement[];
  /** The shared WebAssembly memory holding the weights, or the buffer. */
  memory?: WebAssembly.Memory;
  buffer?: SharedArrayBuffer;
}

/**
 * Declares every tensor resident in the heap's (shared) memory: a tensor already in that memory
 * (read there by the loader, see `createWeightArena`) is adopted where it lies, any other is
 * copied in once. Throws `WasmMemoryLimitError` when the copies do not fit.
 */
export function storeInWasmHeap(heap: WasmHeap, model: DecoderModel): WeightStore {
  const placements: TensorPlacement[] = [];
  const placed = new Map<Float32Array, Float32Array>();
  const tensors = new Map<string, Float32Array>();
  for (const [name, source] of model.tensors) {
    let view = placed.get(source);
    const inArena = arenaPlacement(source);
    if (view === undefined && inArena?.memory === heap.memory) {
      heap.adopt(source, inArena.address);
      view = source;
      placed.set(source, view);
    } else if (view === undefined) {
      const address = heap.allocate(source.byteLength);
      view = new Float32Array(heap.memory.buffer, address, source.length);
      view.set(source);
      heap.adopt(view, address);
      placed.set(source, view);
    }
    tensors.set(name, view);
    placements.push([name, view.byteOffset, view.length]);
  }
  return { model: { config: model.config, tensors }, placements, memory: heap.memory };
}

/** Copies every tensor once into one `SharedArrayBuffer` (for the scalar kernels on several threads). */
export function storeInSharedBuffer(model: DecoderModel): WeightStore {
  const unique = [...new Set(model.tensors.values())];
  const offsets = new Map<Float32Array, number>();
  let bytes = 0;
  for (const tensor of unique) {
    offsets.set(tensor, bytes);
    bytes += Math.ceil(tensor.byteLength / 16) * 16;
  }
  const buffer = new SharedArrayBuffer(Math.max(16, bytes));
  const views = new Map<Float32Array, Float32Array>();
  for (const tensor of unique) {
    const view = new Float32Array(buffer, offsets.get(tensor)!, tensor.length);
    view.set(tensor);
    views.set(tensor, view);
  }
  const tensors = new Map<string, Float32Array>();
  const placements: TensorPlacement[] = [];
  for (const [name, source] of model.tensors) {
    const view = views.get(source)!;
    tensors.set(name, view);
    placements.push([name, view.byteOffset, view.length]);
  }
  return { model: { config: model.config, tensors }, placements, buffer };
}

/** Another thread's model over a store's memory or buffer: views, no copies. */
export function modelOverStore(config: DecoderConfig, buffer: ArrayBufferLike, placements: readonly TensorPlacement[]): DecoderModel {
  const views = new Map<number, Float32Array>();
  const tensors = new Map<string, Float32Array>();
  for (const [name, byteOffset, length] of placements) {
    let view = views.get(byteOffset);
    if (view === undefined || view.length !== length) {
      view = new Float32Array(buffer, byteOffset, length);
      views.set(byteOffset, view);
    }
    tensors.set(name, view);
  }
  return { config, tensors };
}
