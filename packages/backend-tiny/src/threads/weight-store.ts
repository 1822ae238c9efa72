import type { DecoderConfig, DecoderModel } from '@reward-lens/spec';
import { arenaPlacement } from '@reward-lens/spec/internal';
import type { WasmHeap } from '../kernels/wasm/wasm-heap.js';
import type { QuantizedFormatV1, QuantizedTensorV1 } from '@reward-lens/spec';
import { quantizedBytes, quantizedTensorOver, quantizeInto, quantizeTensor, type PlannedQuantization } from '@reward-lens/spec/internal';

/** Where one tensor lies in a store: its name, byte offset and number of floats. */
export type TensorPlacement = readonly [name: string, byteOffset: number, length: number];

/** Where one quantized matrix's region lies in a store: its name, byte offset, format and shape. */
export type QuantizedPlacement = readonly [name: string, byteOffset: number, format: QuantizedFormatV1, rows: number, columns: number];

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
  /** The shared WebAssembly memory holding the weights, or the buffer. */
  memory?: WebAssembly.Memory;
  buffer?: SharedArrayBuffer;
}

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
      quantizedPlacements.push([name, matrix.bytes.byteOffset, planned.format, planned.rows, planned.columns]);
      continue;
    }
    let view = placed.get(source);
    if (view === undefined) {
      view = place(source);
      placed.set(source, view);
    }
    tensors.set(name, view);
    placements.push([name, view.byteOffset, view.length]);
  }
  for (const [name, given] of model.quantized ?? []) {
    const matrix = keep(given);
    quantized.set(name, matrix);
    quantizedPlacements.push([name, matrix.bytes.byteOffset, matrix.format, matrix.rows, matrix.columns]);
  }
  return { model: { config: model.config, tensors }, quantized, placements, quantizedPlacements };
}

/**
 * Declares every tensor resident in the heap's (shared) memory: a tensor already in that memory
 * (read there by the loader, see `createWeightArena`) is adopted where it lies, any other is
 * copied in once; a planned matrix is quantized straight into it. Throws `WasmMemoryLimitError`
 * when they do not fit.
 */
export function storeInWasmHeap(heap: WasmHeap, model: DecoderModel, plan: QuantizationPlan = new Map()): WeightStore {
  const stored = storeWith(
    model,
    plan,
    (source) => {
      const inArena = arenaPlacement(source);
      if (inArena?.memory === heap.memory) {
        heap.adopt(source, inArena.address);
        return source;
      }
      const address = heap.allocate(source.byteLength);
      const view = new Float32Array(heap.memory.buffer, address, source.length);
      view.set(source);
      heap.adopt(view, address);
      return view;
    },
    (source, format, rows, columns) => {
      const address = heap.allocate(quantizedBytes(format, rows, columns));
      const matrix = quantizedTensorOver(heap.memory.buffer, address, format, rows, columns);
      quantizeInto(matrix, source);
      heap.adopt(matrix.bytes, address);
      return matrix;
    },
    (given) => {
      const inArena = arenaPlacement(given.bytes);
      if (inArena?.memory === heap.memory) {
        heap.adopt(given.bytes, inArena.address);
        return given;
      }
      const address = heap.allocate(given.bytes.byteLength);
      const matrix = quantizedTensorOver(heap.memory.buffer, address, given.format, given.rows, given.columns);
      matrix.bytes.set(given.bytes);
      heap.adopt(matrix.bytes, address);
      return matrix;
    },
  );
  return { ...stored, memory: heap.memory };
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

/** Another thread's model and quantized matrices over a store's memory or buffer: views, no copies. */
export function modelOverStore(
  config: DecoderConfig,
  buffer: ArrayBufferLike,
  placements: readonly TensorPlacement[],
  quantizedPlacements: readonly QuantizedPlacement[] = [],
): { model: DecoderModel; quantized: Map<string, QuantizedTensorV1> } {
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
  const quantized = new Map<string, QuantizedTensorV1>();
  for (const [name, byteOffset, format, rows, columns] of quantizedPlacements)
    quantized.set(name, quantizedTensorOver(buffer, byteOffset, format, rows, columns));
  return { model: { config, tensors }, quantized };
}
