import type { DecoderConfig, DecoderModel } from '@reward-lens/spec';
import { arenaPlacement } from '@reward-lens/spec/internal';
import { WasmMemoryLimitError, type WasmHeap } from '../kernels/wasm/wasm-heap.js';
import type { WasmSimdKernelSet } from '../kernels/wasm/wasm-simd-kernels.js';
import type { QuantizedFormatV1, QuantizedTensorV1 } from '@reward-lens/spec';
import { quantizedBytes, quantizedTensorOver, quantizeInto, quantizeTensor, type PlannedQuantization } from '@reward-lens/spec/internal';

/** Where one tensor lies in a store: its name, byte offset, number of floats, and which of the store's memories holds it. */
export type TensorPlacement = readonly [name: string, byteOffset: number, length: number, memory: number];

/** Where one quantized matrix's region lies in a store: its name, byte offset, format, shape and memory. */
export type QuantizedPlacement = readonly [name: string, byteOffset: number, format: QuantizedFormatV1, rows: number, columns: number, memory: number];

/** Which float32 matrices to quantize as they are placed, by name: the format and the `[rows, columns]` shape of each. */
export type QuantizationPlan = ReadonlyMap<string, PlannedQuantization>;

/**
 * A model's weights, held once: the float32 tensors (`model`, the backend's own arrays from here
 * on, so the caller's can be dropped) and the matrices held quantized instead (`quantized`, left
 * out of `model`). In memory every thread can see (a shared WebAssembly memory or a
 * `SharedArrayBuffer`: other threads rebuild both from the placements), or on one thread in
 * ordinary buffers.
 */
export interface WeightStore {
  model: DecoderModel;
  quantized: ReadonlyMap<string, QuantizedTensorV1>;
  placements: TensorPlacement[];
  quantizedPlacements: QuantizedPlacement[];
  /** The shared WebAssembly memories holding the weights (several past 4 GiB), or the buffer. */
  memories?: WebAssembly.Memory[];
  buffer?: SharedArrayBuffer;
}

/** A home for a tensor: a view's memory (an index into the store's memories) is found from its buffer. */
type MemoryIndexOf = (view: ArrayBufferView) => number;

/**
 * Places each tensor once: `place` gives a float32 tensor its home, `quantize` a planned matrix
 * its region, `keep` a matrix the model holds quantized already (a loader quantized it).
 */
function storeWith(
  model: DecoderModel,
  plan: QuantizationPlan,
  place: (source: Float32Array) => Float32Array,
  quantize: (source: Float32Array, format: QuantizedFormatV1, rows: number, columns: number) => QuantizedTensorV1,
  keep: (tensor: QuantizedTensorV1) => QuantizedTensorV1,
  memoryOf: MemoryIndexOf = () => 0,
): Pick<WeightStore, 'model' | 'quantized' | 'placements' | 'quantizedPlacements'> {
  const placed = new Map<Float32Array, Float32Array>();
  const tensors = new Map<string, Float32Array>();
  const quantized = new Map<string, QuantizedTensorV1>();
  const placements: TensorPlacement[] = [];
  const quantizedPlacements: QuantizedPlacement[] = [];
  for (const [name, source] of model.tensors) {
    const planned = plan.get(name);
    if (planned) {
      const matrix = quantize(source, planned.format, planned.rows, planned.columns);
      quantized.set(name, matrix);
      quantizedPlacements.push([name, matrix.bytes.byteOffset, planned.format, planned.rows, planned.columns, memoryOf(matrix.bytes)]);
      continue;
    }
    let view = placed.get(source);
    if (view === undefined) {
      view = place(source);
      placed.set(source, view);
    }
    tensors.set(name, view);
    placements.push([name, view.byteOffset, view.length, memoryOf(view)]);
  }
  for (const [name, given] of model.quantized ?? []) {
    const matrix = keep(given);
    quantized.set(name, matrix);
    quantizedPlacements.push([name, matrix.bytes.byteOffset, matrix.format, matrix.rows, matrix.columns, memoryOf(matrix.bytes)]);
  }
  return { model: { config: model.config, tensors }, quantized, placements, quantizedPlacements };
}

/**
 * Bytes of a memory left to the kernels' scratch (the activations a product copies in beside its
 * weights), never given to weights: a quarter of the memory, at least 1 MiB, at most 512 MiB (a
 * 4 GiB memory then holds 3.5 GiB of weights, as a full weight arena does).
 */
export function scratchReserve(heap: WasmHeap): number {
  return Math.max(2 ** 20, Math.min(512 * 2 ** 20, Math.floor(heap.maximumBytes / 4)));
}

/**
 * Declares every tensor resident in the kernels' (shared) memories: a tensor already in one of
 * them (read there by the loader, see `createWeightArena`) is adopted where it lies, any other
 * is copied in once; a planned matrix is quantized straight into one. A memory takes weights up
 * to its cap less the scratch it keeps (`scratchReserve`); the rest go to further memories
 * (`addMemory`), so a model is not bounded by one memory's 4 GiB. Throws `WasmMemoryLimitError`
 * when a single tensor fits in no memory.
 */
export function storeInWasmHeap(kernels: WasmSimdKernelSet, model: DecoderModel, plan: QuantizationPlan = new Map()): WeightStore {
  const allocate = (bytes: number): { heap: WasmHeap; address: number } => {
    const heaps = kernels.heaps;
    let heap = heaps[heaps.length - 1]!;
    if (heap.allocatedBytes + bytes > heap.maximumBytes - scratchReserve(heap)) {
      if (bytes > heap.maximumBytes - scratchReserve(heap) - 16) {
        throw new WasmMemoryLimitError(bytes, { cause: new RangeError(`one tensor of ${bytes} bytes is larger than a memory's room for weights`) });
      }
      heap = kernels.addMemory();
    }
    return { heap, address: heap.allocate(bytes) };
  };
  // A tensor a loader read into a weight arena lies in one of the set's memories: adopted there.
  const heapOf = (placement: { memory: unknown } | undefined) =>
    placement === undefined ? undefined : kernels.heaps.find((heap) => heap.memory === placement.memory);
  const stored = storeWith(
    model,
    plan,
    (source) => {
      const inArena = arenaPlacement(source);
      const home = heapOf(inArena);
      if (home) {
        home.adopt(source, inArena!.address);
        return source;
      }
      const { heap, address } = allocate(source.byteLength);
      const view = new Float32Array(heap.memory.buffer, address, source.length);
      view.set(source);
      heap.adopt(view, address);
      return view;
    },
    (source, format, rows, columns) => {
      const { heap, address } = allocate(quantizedBytes(format, rows, columns));
      const matrix = quantizedTensorOver(heap.memory.buffer, address, format, rows, columns);
      quantizeInto(matrix, source);
      heap.adopt(matrix.bytes, address);
      return matrix;
    },
    (given) => {
      const inArena = arenaPlacement(given.bytes);
      const home = heapOf(inArena);
      if (home) {
        home.adopt(given.bytes, inArena!.address);
        return given;
      }
      const { heap, address } = allocate(given.bytes.byteLength);
      const matrix = quantizedTensorOver(heap.memory.buffer, address, given.format, given.rows, given.columns);
      matrix.bytes.set(given.bytes);
      heap.adopt(matrix.bytes, address);
      return matrix;
    },
    (view) =>
      Math.max(
        0,
        kernels.heaps.findIndex((heap) => heap.residentAddress(view as Float32Array | Uint8Array) !== undefined),
      ),
  );
  return { ...stored, memories: kernels.heaps.map((heap) => heap.memory) };
}

/** Copies every tensor once into one `SharedArrayBuffer` (for the scalar kernels on several threads), planned matrices quantized. */
export function storeInSharedBuffer(model: DecoderModel, plan: QuantizationPlan = new Map()): WeightStore {
  const alignUp = (bytes: number) => Math.ceil(bytes / 16) * 16;
  let bytes = 0;
  const counted = new Set<Float32Array>();
  for (const [name, tensor] of model.tensors) {
    const planned = plan.get(name);
    if (planned) bytes += quantizedBytes(planned.format, planned.rows, planned.columns);
    else if (!counted.has(tensor)) {
      counted.add(tensor);
      bytes += alignUp(tensor.byteLength);
    }
  }
  for (const given of model.quantized?.values() ?? []) bytes += given.bytes.byteLength;
  const buffer = new SharedArrayBuffer(Math.max(16, bytes));
  let next = 0;
  const stored = storeWith(
    model,
    plan,
    (source) => {
      const view = new Float32Array(buffer, next, source.length);
      next += alignUp(source.byteLength);
      view.set(source);
      return view;
    },
    (source, format, rows, columns) => {
      const matrix = quantizedTensorOver(buffer, next, format, rows, columns);
      next += quantizedBytes(format, rows, columns);
      quantizeInto(matrix, source);
      return matrix;
    },
    (given) => {
      const matrix = quantizedTensorOver(buffer, next, given.format, given.rows, given.columns);
      next += given.bytes.byteLength;
      matrix.bytes.set(given.bytes);
      return matrix;
    },
  );
  return { ...stored, buffer };
}

/** One thread's store: the caller's float32 arrays as they are, planned matrices quantized into buffers of their own. */
export function storeInPlace(model: DecoderModel, plan: QuantizationPlan): WeightStore {
  return {
    ...storeWith(
      model,
      plan,
      (source) => source,
      quantizeTensor,
      (given) => given,
    ),
  };
}

/** Another thread's model and quantized matrices over a store's memories (`buffers[i]`, the memory a placement names) or buffer: views, no copies. */
export function modelOverStore(
  config: DecoderConfig,
  buffers: readonly ArrayBufferLike[],
  placements: readonly TensorPlacement[],
  quantizedPlacements: readonly QuantizedPlacement[] = [],
): { model: DecoderModel; quantized: Map<string, QuantizedTensorV1> } {
  const views = new Map<string, Float32Array>();
  const tensors = new Map<string, Float32Array>();
  for (const [name, byteOffset, length, memory] of placements) {
    const key = `${memory}:${byteOffset}`;
    let view = views.get(key);
    if (view === undefined || view.length !== length) {
      view = new Float32Array(buffers[memory]!, byteOffset, length);
      views.set(key, view);
    }
    tensors.set(name, view);
  }
  const quantized = new Map<string, QuantizedTensorV1>();
  for (const [name, byteOffset, format, rows, columns, memory] of quantizedPlacements) {
    quantized.set(name, quantizedTensorOver(buffers[memory]!, byteOffset, format, rows, columns));
  }
  return { model: { config, tensors }, quantized };
}
