import {
  BackendResolutionError,
  InvalidInputError,
  decoderModelInfo,
  describeDecoder,
  validateDecoderModel,
  type BackendV1,
  type DecoderModel,
} from '@reward-lens/spec';
import { selectKernels, currentKernelPlatform, currentKernelPlatformAsync, type KernelChoice, type KernelName } from './kernels/kernel-choice.js';
import { scalarKernels, type KernelSet } from './kernels/kernel-set.js';
import { sharedWasmMemoryAvailable, WasmMemoryLimitError } from './kernels/wasm/wasm-heap.js';
import {
  createWasmSimdKernels,
  createWasmSimdKernelsAsync,
  sharedKernelModule,
  type WasmSimdKernelOptions,
  type WasmSimdKernelSet,
} from './kernels/wasm/wasm-simd-kernels.js';
import { gatherDecoderWeights, type DecoderWeights } from './model/decoder-weights.js';
import { productKernels } from './model/product-kernels.js';
import { chooseQuantization, tinyDtypes, type QuantizationChoice, type TinyDtype } from './model/quantization-plan.js';
import type { QuantizedTensorV1 } from '@reward-lens/spec';
import { createRotaryTables } from './model/rotary-embedding.js';
import { DEFAULT_SHARD_TOKENS } from './gradients/shards.js';
import { arenaPlacement } from '@reward-lens/spec/internal';
import type { ModelPayload } from './threads/protocol.js';
import { resolveThreads, sharedWorkerPool, type ThreadSetting } from './threads/shared-pool.js';
import { storeInPlace, storeInSharedBuffer, storeInWasmHeap, type QuantizationPlan, type WeightStore } from './threads/weight-store.js';
import { forwardOnly, TinyBackend, type TinyBackendParts } from './tiny-backend.js';

export { tinyBackendCapabilities } from './tiny-backend.js';

export interface TinyBackendOptions {
  /** Check every tensor's presence and size first (default true). */
  validate?: boolean;
  /**
   * The dense kernels to run on: `'auto'` (default) takes WebAssembly SIMD where the platform
   * has it and the scalar TypeScript kernels otherwise; `'wasm-simd'` or `'scalar'` insist
   * (an unavailable choice throws `BackendResolutionError`); or pass a `KernelSet` of your own.
   * `info.description` says which kernels run (`kernels=wasm-simd`).
   */
  kernels?: KernelChoice | KernelSet;
  /**
   * Threads to compute on (default: every core, `os.availableParallelism()` in Node; 1 where
   * workers cannot share memory, as on a page that is not cross-origin isolated, and then the
   * description says why). Above 1, forward passes are split across worker threads by tokens and
   * gradients by rows; the weights are held once for all of them. Results are the same, bit for
   * bit, whatever the count. `info.description` says how many run (`threads=2`).
   */
  threads?: number;
  /**
   * Real tokens per gradient shard (default 256): rows are grouped into shards of about this
   * many tokens, each shard's gradient computed on its own and the shards summed in order. The
   * gradients depend on it (never on the thread count); training keeps it fixed.
   */
  shardTokens?: number;
  /**
   * Tokens each thread needs for a forward pass to be split across threads (default 32): a pass
   * shorter than that runs on the calling thread, since a message to a worker and back costs
   * about what that many tokens do. Splitting never changes a result.
   */
  sliceTokens?: number;
  /**
   * A cap on each of the WebAssembly SIMD kernels' memories in bytes (default: the engine's, 4
   * GiB), a quarter of which (1 MiB to 512 MiB) is kept for scratch: weights past one memory's
   * room go to further memories. A single tensor larger than the room takes the scalar kernels
   * under `'auto'` (and the backend's notes say so), or throws `BackendResolutionError` under
   * `'wasm-simd'`. Weights read into a weight arena are run where they lie, whatever the cap.
   */
  maximumWasmBytes?: number;
  /**
   * How the weights are held (default `'fp32'`): `'bf16'` or `'fp16'` rounds every projection
   * matrix and the embedding table to 16-bit floats (2 bytes a weight instead of 4); `'q8'`
   * quantizes them to 8-bit integers with a scale per output channel (about 1 byte), `'q4'` to
   * 4-bit integers with a scale per block of 32 weights (about 0.6 bytes). On the WebAssembly SIMD
   * kernels q8 products run on integers (`i32x4.dot_i16x8_s`, each token's activations rounded to
   * 16-bit integers with a scale of its own; the backend then declares precision `fp16`); the others
   * widen the weights to float32 a block at a time, the fp32 kernels' arithmetic over the widened
   * weights. The description and notes say which product kernels run.
   * Tensors the model holds reduced already (`DecoderModel.quantized`, from a loader) are held as
   * they are. Such a backend scores and reads activations but has no gradients;
   * `info.weightDtype` and the notes say what it holds.
   */
  dtype?: TinyDtype;
}

const DEFAULT_SLICE_TOKENS = 32;

/**
 * A backend that runs a Llama / Mistral / Qwen2 decoder in TypeScript, its matrix products on
 * WebAssembly SIMD (float32 accumulation) where available, else in plain TypeScript (float64
 * accumulation); float32 storage. Bit-exact across batch compositions, padding sides and thread
 * counts.
 *
 * Synchronous, for Node and workers: where a browser's main thread refuses to compile the kernel
 * module synchronously (Chromium before 115 did above 4 KB), `'auto'` takes the scalar kernels
 * and says why; `createTinyBackendAsync` gets the SIMD ones on any thread.
 *
 * @example
 * const backend = createTinyBackend(createRandomDecoder({ seed: 1 }), { threads: 2 });
 * const { reads } = await backend.doForward({ batchSize: 1, sequenceLength: 3,
 *   inputIds: Int32Array.of(5, 6, 7), attentionMask: Uint8Array.of(1, 1, 1),
 *   reads: [{ kind: 'head', head: 'value', positions: [[0, 1, 2]] }] });
 */
export function createTinyBackend(model: DecoderModel, options: TinyBackendOptions = {}): BackendV1 {
  const checked = checkModel(model, options);
  const plan = chooseQuantization(model, options.dtype);
  const choice = options.kernels ?? 'auto';
  if (typeof choice !== 'string') return assemble(checked, adoptKernels(choice, model, plan.plan, options.threads), options, plan);
  const selection = selectOrThrow(choice, currentKernelPlatform());
  const threads = resolveThreads(options.threads, false);
  const wasm = selection.kernels === 'wasm-simd' ? createWasmSimdKernels(wasmOptionsFor(threads, model, options, plan.plan)) : undefined;
  return assemble(checked, placeWeights(choice, selection, threads, model, plan.plan, wasm), options, plan);
}

/**
 * `createTinyBackend` with the WebAssembly kernel module compiled and instantiated
 * asynchronously, which every thread allows: on a browser's main thread this is the way to the
 * SIMD kernels. The backend is the same, and so are its results.
 *
 * @example
 * const backend = await createTinyBackendAsync(createRandomDecoder({ seed: 1 }));
 * backend.info.description; // '... kernels=wasm-simd threads=8', in a page too
 */
export async function createTinyBackendAsync(model: DecoderModel, options: TinyBackendOptions = {}): Promise<BackendV1> {
  const checked = checkModel(model, options);
  const plan = chooseQuantization(model, options.dtype);
  const choice = options.kernels ?? 'auto';
  if (typeof choice !== 'string') return assemble(checked, adoptKernels(choice, model, plan.plan, options.threads), options, plan);
  const selection = selectOrThrow(choice, await currentKernelPlatformAsync());
  const threads = resolveThreads(options.threads, false);
  const wasm = selection.kernels === 'wasm-simd' ? await createWasmSimdKernelsAsync(wasmOptionsFor(threads, model, options, plan.plan)) : undefined;
  return assemble(checked, placeWeights(choice, selection, threads, model, plan.plan, wasm), options, plan);
}

/**
 * A shared memory wherever the platform has one: the weights are then held once (and can go to
 * workers). When the loader read tensors into a weight arena, that memory is the set's first:
 * the weights in it are run where they lie, never copied.
 */
function wasmOptionsFor(
  threads: ThreadSetting,
  model: DecoderModel,
  options: TinyBackendOptions,
  quantizing: ReadonlyMap<string, unknown>,
): WasmSimdKernelOptions {
  const arrays = [...model.tensors.values(), ...[...(model.quantized?.values() ?? [])].map((tensor) => tensor.bytes)];
  // In load order: the arena's memories in the order it filled them.
  const memories = [...new Set(arrays.map((array) => arenaPlacement(array)?.memory).filter((memory) => memory !== undefined))];
  // The arena's memories are the set's first ones, their tensors run where they lie; tensors
  // past them (a loader that could not grow the arena) are copied in beside them or into further
  // memories. Float32 weights still to be quantized are not run from them (they would be held for nothing).
  if (memories.length > 0 && quantizing.size === 0) {
    return { shared: true, memories: memories as WebAssembly.Memory[], maximumBytes: options.maximumWasmBytes }; // an arena's memories are shared WebAssembly.Memory objects
  }
  return { shared: threads.threads > 1 || sharedWasmMemoryAvailable(), maximumBytes: options.maximumWasmBytes };
}

function checkModel(model: DecoderModel, options: TinyBackendOptions): DecoderModel {
  if (options.validate !== false) validateDecoderModel(model, 'weights', { quantized: true });
  if (options.dtype !== undefined && !tinyDtypes.includes(options.dtype)) {
    throw new InvalidInputError(`backend "tiny" holds weights as ${tinyDtypes.join(', ')}; got dtype ${JSON.stringify(options.dtype)}`);
  }
  for (const name of ['shardTokens', 'sliceTokens'] as const) {
    const value = options[name];
    if (value !== undefined && !(Number.isSafeInteger(value) && value >= 1)) throw new InvalidInputError(`${name} must be a positive integer, got ${value}`);
  }
  return model;
}

/** The kernels, where the weights live, and the threads: everything but the backend object. */
interface PlacedWeights {
  kernels: KernelSet;
  /** The backend's model: over a weight store, or the caller's own arrays (the float32 tensors). */
  model: DecoderModel;
  /** The matrices held quantized instead, by name. */
  quantized: ReadonlyMap<string, QuantizedTensorV1>;
  description: string;
  threads: ThreadSetting;
  store?: WeightStore;
  kernelName: KernelName | 'own';
  /** Why `'auto'` took the scalar kernels, when it fell back to them. */
  fallback?: string;
}

/** A `KernelSet` of your own runs on the calling thread over the caller's arrays (uploaded, if it keeps copies). */
function adoptKernels(kernels: KernelSet, model: DecoderModel, plan: QuantizationPlan, threads: number | undefined): PlacedWeights {
  const store = storeInPlace(model, plan);
  const placed: PlacedWeights = {
    kernels,
    model: store.model,
    quantized: store.quantized,
    description: kernels.name,
    threads: resolveThreads(threads, true),
    kernelName: 'own',
  };
  for (const tensor of productWeights(gatherDecoderWeights(store.model, store.quantized))) kernels.prepareWeights?.(tensor);
  return placed;
}

/**
 * Places the weights once where every thread reads them: in a shared WebAssembly memory for the
 * SIMD kernels (where the platform shares memory; else in the set's own memory, next to the
 * caller's arrays), in a `SharedArrayBuffer` for the scalar kernels on several threads, or the
 * caller's arrays themselves for the scalar kernels on one. `'auto'` falls back to the scalar
 * kernels when the weights do not fit in WebAssembly memory, and says so.
 */
function placeWeights(
  choice: KernelChoice,
  selection: { kernels: KernelName; note?: string },
  threads: ThreadSetting,
  model: DecoderModel,
  plan: QuantizationPlan,
  kernels: WasmSimdKernelSet | undefined,
): PlacedWeights {
  const withNote = (name: string, note?: string) => (note === undefined ? name : `${name} (${note})`);
  if (selection.kernels === 'wasm-simd' && kernels) {
    try {
      const description = withNote('wasm-simd', selection.note);
      if (kernels.heap.shared) {
        const store = storeInWasmHeap(kernels, model, plan);
        const spread = kernels.heaps.length > 1 ? `, weights in ${kernels.heaps.length} WebAssembly memories` : '';
        return { kernels, model: store.model, quantized: store.quantized, store, description: `${description}${spread}`, threads, kernelName: 'wasm-simd' };
      }
      // An unshared memory (a page that is not cross-origin isolated): the set keeps its own copies.
      const store = storeInPlace(model, plan);
      for (const tensor of productWeights(gatherDecoderWeights(store.model, store.quantized))) kernels.prepareWeights!(tensor);
      for (const matrix of store.quantized.values()) kernels.prepareQuantized(matrix);
      return { kernels, model: store.model, quantized: store.quantized, description, threads, kernelName: 'wasm-simd' };
    } catch (error) {
      if (!(error instanceof WasmMemoryLimitError)) throw error;
      const reason = `the weights do not fit in WebAssembly memory (${error.message})`;
      if (choice !== 'auto') throw new BackendResolutionError(`tiny (kernels: ${choice})`, [{ name: choice, reason }], { cause: error });
      selection = { kernels: 'scalar', note: `wasm-simd: ${reason}` };
    }
  }
  const shared = threads.threads > 1;
  const store = shared ? storeInSharedBuffer(model, plan) : storeInPlace(model, plan);
  return {
    ...(selection.note !== undefined ? { fallback: selection.note } : {}),
    kernels: scalarKernels,
    model: store.model,
    quantized: store.quantized,
    ...(shared ? { store } : {}),
    description: withNote('scalar', selection.note),
    threads,
    kernelName: 'scalar',
  };
}

function assemble(model: DecoderModel, placed: PlacedWeights, options: TinyBackendOptions, quantization: QuantizationChoice): BackendV1 {
  const weights = gatherDecoderWeights(placed.model, placed.quantized);
  const { dtype, notes: quantizationNotes } = quantization;
  const { config } = weights;
  const { threads, note } = placed.threads;
  const parts: TinyBackendParts = {
    model: { weights, rotary: createRotaryTables(config.headDim, config.maxPositions, config.ropeTheta), kernels: placed.kernels },
    tensors: placed.model.tensors,
    description: placed.description,
    threads,
    shardTokens: options.shardTokens ?? DEFAULT_SHARD_TOKENS,
    sliceTokens: options.sliceTokens ?? DEFAULT_SLICE_TOKENS,
  };
  if (threads > 1 && placed.store) parts.pool = { pool: sharedWorkerPool(), load: loadMessage(placed, config) };
  const threadNote = note === undefined ? `threads=${threads}` : `threads=${threads} (${note})`;
  const products = productKernels(placed.kernelName, placed.quantized);
  const productNote = products.phrases.length > 0 ? ` products=[${products.phrases.join('; ')}]` : '';
  const info = decoderModelInfo(model.config, `${describeDecoder(config)} ${threadNote} kernels=${placed.description}${productNote}`);
  // A kernel fallback is said in the notes (the description says it too); fewer threads only in the description.
  const notes = placed.fallback !== undefined ? [`backend "tiny" runs the scalar TypeScript kernels, slower than WebAssembly SIMD: ${placed.fallback}`] : [];
  notes.push(...quantizationNotes);
  if (products.phrases.length > 0) notes.push(`backend "tiny" product kernels: ${products.phrases.join('; ')} (precision ${products.precision})`);
  const described = { ...info, ...(dtype !== 'fp32' ? { weightDtype: dtype } : {}), ...(notes.length > 0 ? { notes } : {}) };
  // Quantized weights are not parameters to differentiate or update: such a backend only runs forward.
  return dtype === 'fp32' ? new TinyBackend(parts, described) : forwardOnly(new TinyBackend(parts, described), products.precision);
}

function loadMessage(placed: PlacedWeights, config: DecoderModel['config']): ModelPayload {
  const store = placed.store!;
  if (placed.kernelName === 'wasm-simd') {
    const compiled = sharedKernelModule();
    if ('unavailable' in compiled) throw new Error(`the shared-memory kernel module is unavailable: ${compiled.unavailable}`);
    return {
      config,
      placements: store.placements,
      quantizedPlacements: store.quantizedPlacements,
      kernels: 'wasm-simd',
      memories: store.memories!,
      module: compiled.module,
    };
  }
  return { config, placements: store.placements, quantizedPlacements: store.quantizedPlacements, kernels: 'scalar', buffer: store.buffer! };
}

function selectOrThrow(choice: KernelChoice, platform: Parameters<typeof selectKernels>[1]): { kernels: KernelName; note?: string } {
  const selection = selectKernels(choice, platform);
  if (selection.kernels === null) throw new BackendResolutionError(`tiny (kernels: ${choice})`, [{ name: choice, reason: selection.reason }]);
  return selection;
}

/** Every matrix and bias the products use, for kernels that keep copies to prepare (upload) once. */
function productWeights(weights: DecoderWeights): Float32Array[] {
  const tensors = [
    ...weights.layers.flatMap((layer) => [
      layer.queryWeight,
      layer.keyWeight,
      layer.valueWeight,
      layer.queryBias,
      layer.keyBias,
      layer.valueBias,
      layer.outputWeight,
      layer.gateWeight,
      layer.upWeight,
      layer.downWeight,
    ]),
    ...[...weights.heads.values()].flatMap((head) => head.steps.flatMap((step) => (step.op === 'linear' ? [step.weight, step.bias] : []))),
  ];
  return tensors.filter((tensor): tensor is Float32Array => tensor instanceof Float32Array);
}
