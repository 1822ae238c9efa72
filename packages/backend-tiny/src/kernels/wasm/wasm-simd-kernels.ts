import type { AttentionShape, KernelSet } from '../kernel-set.js';
import { compiledKernelModule, compiledKernelModuleAsync, type KernelModuleExports } from './kernel-module.js';
import { matmulColumnBlock, matmulRowBlock } from './matmul-simd.js';
import { GEMM_ROW_BLOCK, gemmDepthBlock } from './matmul-untransposed-simd.js';
import { attendRowInWasm } from './wasm-attention.js';
import { attentionBackwardInWasm } from './wasm-attention-backward.js';
import { WasmHeap } from './wasm-heap.js';
import { locateOperands } from './wasm-operands.js';
import { quantizedMatmulInWasm } from './wasm-quantized-matmul.js';
import type { QuantizedTensorV1 } from '@reward-lens/spec';

/** Why the WebAssembly SIMD kernels cannot be created synchronously here, or null when they can. */
export function wasmSimdUnavailableReason(): string | null {
  const compiled = compiledKernelModule();
  return 'unavailable' in compiled ? compiled.unavailable : null;
}

/** Why the WebAssembly SIMD kernels cannot be created asynchronously here (on any thread), or null when they can. */
export async function wasmSimdUnavailableReasonAsync(): Promise<string | null> {
  const compiled = await compiledKernelModuleAsync();
  return 'unavailable' in compiled ? compiled.unavailable : null;
}

/**
 * Kernels on a WebAssembly SIMD (f32x4) module emitted at run time (see `kernel-module.ts`).
 * One set owns one memory: weights announced through `prepareWeights` are uploaded once and
 * stay as long as the set (its backend) lives; each call copies its activations in above them
 * and its result out.
 *
 * Arithmetic is float32 throughout, where the scalar set accumulates in float64: against a
 * float64 reference, a product's relative error grows like `sqrt(inDim) · 2^-24` (about 1e-6 at
 * `inDim = 4096`), and `exp` (softmax, SiLU) is a polynomial within 2e-7. Products over q8
 * weights run on integers instead, over activations rounded to 16 bits a row (`int8-matmul-simd.ts`).
 * Each output has one fixed order of operations, so a row's results depend on that row alone, bit
 * for bit.
 */
/** The WebAssembly SIMD set, with its heap: where a weight store places the weights (backend-internal). */
export interface WasmSimdKernelSet extends KernelSet {
  /** The first memory's heap: every product's scratch but those over weights in a further memory. */
  readonly heap: WasmHeap;
  /** Every memory's heap, the first first: weights past one memory's 4 GiB go to further ones. */
  readonly heaps: readonly WasmHeap[];
  /**
   * A further memory (of the first's kind and cap) with the kernel module instantiated over it,
   * for weights past the others': a product over a weight resident there runs there.
   */
  addMemory(): WasmHeap;
  /** Uploads a quantized matrix's region once, where the set reads it from then on (a set on an unshared memory). */
  prepareQuantized(matrix: QuantizedTensorV1): void;
  /** `out = x · wᵀ (+ bias)` over a reduced `w`: q8 on integers, the other formats widened (`wasm-quantized-matmul.ts`). */
  matmulQuantized(out: Float32Array, x: Float32Array, w: QuantizedTensorV1, rows: number, inDim: number, outDim: number, bias?: Float32Array): void;
}

/** One memory's heap and the kernel module instantiated over it. */
interface MemoryKernels {
  heap: WasmHeap;
  kernels: KernelModuleExports;
}

class WasmSimdKernels implements WasmSimdKernelSet {
  readonly name = 'wasm-simd';
  readonly #memories: MemoryKernels[];
  readonly #module: WebAssembly.Module;
  readonly #newHeap: () => WasmHeap;
  readonly #heap: WasmHeap;
  readonly #kernels: KernelModuleExports;

  /** `memories[i]`: a heap and the module instantiated over it; `newHeap` makes the heap of a further memory. */
  constructor(memories: readonly MemoryKernels[], module: WebAssembly.Module, newHeap: () => WasmHeap) {
    this.#module = module;
    this.#newHeap = newHeap;
    this.#memories = [...memories];
    this.#heap = this.#memories[0]!.heap;
    this.#kernels = this.#memories[0]!.kernels;
  }

  get heap(): WasmHeap {
    return this.#heap;
  }

  get heaps(): readonly WasmHeap[] {
    return this.#memories.map((memory) => memory.heap);
  }

  addMemory(): WasmHeap {
    const heap = this.#newHeap();
    this.#memories.push(instantiateOver(this.#module, heap));
    return heap;
  }

  /** The memory a resident weight lies in (the first when it lies in none: it is then copied into scratch). */
  #memoryOf(weight: Float32Array | Uint8Array): MemoryKernels {
    if (this.#memories.length === 1) return this.#memories[0]!;
    return this.#memories.find((memory) => memory.heap.residentAddress(weight) !== undefined) ?? this.#memories[0]!;
  }

  prepareWeights(weights: Float32Array): void {
    this.#heap.upload(weights);
  }

  refreshWeights(weights: Float32Array): void {
    this.#heap.refresh(weights);
  }

  matmulTransposed(out: Float32Array, x: Float32Array, w: Float32Array, rows: number, inDim: number, outDim: number, bias?: Float32Array): void {
    if (rows === 0 || outDim === 0) return;
    const { heap, kernels } = this.#memoryOf(w);
    // Resident weights are read where they are; anything else is copied into scratch.
    const operands = locateOperands(
      heap,
      [
        [x, rows * inDim],
        [w, outDim * inDim],
        [bias, outDim],
      ],
      rows * outDim,
    );
    const [xAddress, wAddress, biasAddress, outAddress] = operands;
    kernels.matmul(
      outAddress!,
      xAddress!,
      wAddress!,
      biasAddress!,
      rows,
      inDim,
      outDim,
      outDim * 4,
      inDim * 4,
      inDim * 4,
      matmulRowBlock(inDim),
      matmulColumnBlock(inDim),
    );
    heap.read(outAddress!, rows * outDim, out);
  }

  matmulQuantized(out: Float32Array, x: Float32Array, w: QuantizedTensorV1, rows: number, inDim: number, outDim: number, bias?: Float32Array): void {
    const { heap, kernels } = this.#memoryOf(w.bytes);
    quantizedMatmulInWasm(heap, kernels, out, x, w, rows, inDim, outDim, bias);
  }

  /** Uploads a quantized matrix's region once (an unshared heap: a shared one adopts it where a weight store placed it). */
  prepareQuantized(matrix: QuantizedTensorV1): void {
    this.#heap.upload(matrix.bytes);
  }

  matmul(out: Float32Array, x: Float32Array, w: Float32Array, rows: number, inDim: number, outDim: number, accumulate = false): void {
    this.#gemm(out, x, w, rows, inDim, outDim, inDim * 4, 4, accumulate);
  }

  matmulTransposedLeft(out: Float32Array, a: Float32Array, b: Float32Array, rows: number, aDim: number, bDim: number, accumulate = false): void {
    this.#gemm(out, a, b, aDim, rows, bDim, 4, aDim * 4, accumulate);
  }

  /** `out[m, n] (+)= Σ_k a(m, k)·b[k, n]`: see `gemm` in `matmul-untransposed-simd.ts`. */
  #gemm(
    out: Float32Array,
    a: Float32Array,
    b: Float32Array,
    rows: number,
    depth: number,
    columns: number,
    aRowStride: number,
    aDepthStride: number,
    accumulate: boolean,
  ): void {
    if (rows === 0 || columns === 0) return;
    if (depth === 0) {
      if (!accumulate) out.fill(0, 0, rows * columns);
      return;
    }
    const heap = this.#heap;
    const [aAddress, bAddress, outAddress] = locateOperands(
      heap,
      [
        [a, rows * depth],
        [b, depth * columns],
      ],
      rows * columns,
    ) as [number, number, number];
    if (accumulate) heap.write(outAddress, out, rows * columns);
    this.#kernels.gemm(
      outAddress,
      aAddress,
      bAddress,
      rows,
      depth,
      columns,
      aRowStride,
      aDepthStride,
      columns * 4,
      columns * 4,
      accumulate ? 1 : 0,
      gemmDepthBlock(columns),
      GEMM_ROW_BLOCK,
    );
    heap.read(outAddress, rows * columns, out);
  }

  gatedSilu(gate: Float32Array, up: Float32Array, count: number): void {
    const heap = this.#heap;
    const [gateAddress, upAddress] = heap.scratch([count, count]) as [number, number];
    heap.write(gateAddress, gate, count);
    heap.write(upAddress, up, count);
    this.#kernels.gatedSilu(gateAddress, upAddress, count);
    heap.read(gateAddress, count, gate);
  }

  gatedSiluBackward(dGate: Float32Array, dUp: Float32Array, dh: Float32Array, gate: Float32Array, up: Float32Array, count: number): void {
    const heap = this.#heap;
    const [dGateAddress, dUpAddress, dhAddress, gateAddress, upAddress] = heap.scratch([count, count, count, count, count]) as [
      number,
      number,
      number,
      number,
      number,
    ];
    heap.write(dhAddress, dh, count);
    heap.write(gateAddress, gate, count);
    heap.write(upAddress, up, count);
    this.#kernels.gatedSiluBackward(dGateAddress, dUpAddress, dhAddress, gateAddress, upAddress, count);
    heap.read(dGateAddress, count, dGate);
    heap.read(dUpAddress, count, dUp);
  }

  attentionBackwardRow(
    shape: AttentionShape,
    queries: Float32Array,
    keys: Float32Array,
    values: Float32Array,
    dOutput: Float32Array,
    dQueries: Float32Array,
    dKeys: Float32Array,
    dValues: Float32Array,
    start: number,
    count: number,
  ): void {
    attentionBackwardInWasm(this.#heap, this.#kernels, shape, queries, keys, values, dOutput, dQueries, dKeys, dValues, start, count);
  }

  attendRow(
    shape: AttentionShape,
    queries: Float32Array,
    output: Float32Array,
    queryStart: number,
    tokenCount: number,
    pastLength: number,
    keys: Float32Array,
    values: Float32Array,
  ): void {
    attendRowInWasm(this.#heap, this.#kernels, shape, queries, output, queryStart, tokenCount, pastLength, keys, values);
  }
}

export interface WasmSimdKernelOptions {
  /** A cap on the set's memory in bytes (default: the engine's limit). */
  maximumBytes?: number | undefined;
  /**
   * A shared memory (see `sharedWasmMemoryAvailable`): the set's weights can then be adopted by
   * sets on other threads (`wasmSimdKernelsOver`) instead of copied.
   */
  shared?: boolean | undefined;
  /**
   * A shared memory laid out as a heap lays its own out (a weight arena the loader read the
   * weights into, `createWeightArena` of `@reward-lens/spec/internal`): the set runs over it, and
   * a weight store adopts the weights already there instead of copying them. Implies `shared`.
   */
  memory?: WebAssembly.Memory | undefined;
  /** Several such memories (a weight arena past one memory's room): the first is the set's first, the others its further memories. Implies `shared`. */
  memories?: readonly WebAssembly.Memory[] | undefined;
}

/**
 * A new WebAssembly SIMD kernel set with its own memory (one per backend, so that a backend's
 * uploaded weights are freed with it), capped at `maximumBytes` when given; growing past the
 * cap throws `WasmMemoryLimitError`. Throws where `wasmSimdUnavailableReason()` gives a reason.
 * Compiles and instantiates synchronously, which some browsers refuse on the main thread for
 * this module: use `createWasmSimdKernelsAsync` there.
 */
export function createWasmSimdKernels(options: WasmSimdKernelOptions = {}): WasmSimdKernelSet {
  const module = moduleOrThrow(compiledKernelModule(memoryKind(options)));
  const memories = [instantiateOver(module, heapFor(options)), ...adoptedHeaps(options).map((heap) => instantiateOver(module, heap))];
  return new WasmSimdKernels(memories, module, furtherHeaps(options));
}

/**
 * The same set, compiled and instantiated asynchronously, as a browser's main thread allows.
 * Throws where `wasmSimdUnavailableReasonAsync()` gives a reason.
 */
export async function createWasmSimdKernelsAsync(options: WasmSimdKernelOptions = {}): Promise<WasmSimdKernelSet> {
  const module = moduleOrThrow(await compiledKernelModuleAsync(memoryKind(options)));
  const heap = heapFor(options);
  const instance = await WebAssembly.instantiate(module, importsOver(heap));
  const memories = [
    { heap, kernels: instance.exports as unknown as KernelModuleExports },
    ...adoptedHeaps(options).map((adopted) => instantiateOver(module, adopted)),
  ];
  return new WasmSimdKernels(memories, module, furtherHeaps(options));
}

/**
 * Another thread's kernel set over the shared memories a set made with `shared: true` laid out
 * (its `heaps`, in order): `module` is the shared-memory kernel module (`WebAssembly.Module`s pass
 * between threads), and the weights are adopted where they are (`heap.adopt`), never copied.
 */
export function wasmSimdKernelsOver(memories: readonly WebAssembly.Memory[], module: WebAssembly.Module): WasmSimdKernelSet {
  return new WasmSimdKernels(
    memories.map((memory) => instantiateOver(module, new WasmHeap({ memory }))),
    module,
    () => {
      throw new Error("another thread's kernel set takes the memories its weights are in; it adds none");
    },
  );
}

/** The shared-memory kernel module, for `wasmSimdKernelsOver` on other threads, or why there is none. */
export function sharedKernelModule(): { module: WebAssembly.Module } | { unavailable: string } {
  return compiledKernelModule('shared');
}

const memoryKind = (options: WasmSimdKernelOptions) => (options.shared || options.memory || options.memories ? 'shared' : 'unshared');

/** The heaps of the memories the options give (a weight arena's), after the first. */
const adoptedHeaps = (options: WasmSimdKernelOptions) => (options.memories ?? []).slice(1).map((memory) => new WasmHeap({ memory }));

/** Further memories are shared (weights go to them only from a shared first one) and capped as the first was. */
const furtherHeaps = (options: WasmSimdKernelOptions) => () => new WasmHeap({ maximumBytes: options.maximumBytes, shared: true });

const heapFor = (options: WasmSimdKernelOptions) =>
  options.memories?.[0]
    ? new WasmHeap({ memory: options.memories[0] })
    : options.memory
      ? new WasmHeap({ memory: options.memory })
      : new WasmHeap({ maximumBytes: options.maximumBytes, shared: options.shared });

function moduleOrThrow(compiled: { module: WebAssembly.Module } | { unavailable: string }): WebAssembly.Module {
  if ('unavailable' in compiled) throw new Error(`WebAssembly SIMD kernels unavailable: ${compiled.unavailable}`);
  return compiled.module;
}

const importsOver = (heap: WasmHeap): WebAssembly.Imports => ({ env: { memory: heap.memory } });

const instantiateOver = (module: WebAssembly.Module, heap: WasmHeap): MemoryKernels => ({
  heap,
  kernels: new WebAssembly.Instance(module, importsOver(heap)).exports as unknown as KernelModuleExports,
});
