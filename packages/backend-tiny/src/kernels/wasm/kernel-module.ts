import { addGatedSiluBackward } from './activations-backward-simd.js';
import { addCausalSoftmaxBackward, addMaskAboveDiagonal } from './attention-backward-simd.js';
import { addGatedSilu, addSoftmaxRows } from './activations-simd.js';
import { addAttendValues } from './attention-values-simd.js';
import { addDequantize } from './dequantize-simd.js';
import { addMatmulQ8 } from './int8-matmul-simd.js';
import { addMatmul } from './matmul-simd.js';
import { addMatmulUntransposed } from './matmul-untransposed-simd.js';
import { MAXIMUM_WASM_PAGES } from './wasm-heap.js';
import { WasmModuleBuilder } from './wasm-module-builder.js';

/** The kernel module's functions: byte addresses into the imported `env.memory`. */
export interface KernelModuleExports {
  matmul(
    out: number,
    x: number,
    w: number,
    bias: number,
    rows: number,
    inDim: number,
    outDim: number,
    outStride: number,
    xStride: number,
    wStride: number,
    rowBlock: number,
    columnBlock: number,
  ): void;
  quantizeActivations(out: number, scales: number, x: number, rows: number, inDim: number, outStride: number): void;
  /** `matmul`'s arguments (over i16 rows of `x` and int8 rows of `w`), then the rows' scales of each. */
  matmulQ8(...args: [...Parameters<KernelModuleExports['matmul']>, xScales: number, wScales: number]): void;
  dequantizeQ8(out: number, data: number, scales: number, rows: number, columns: number): void;
  dequantizeQ4(out: number, data: number, scales: number, blocks: number): void;
  dequantizeBf16(out: number, data: number, count: number): void;
  dequantizeFp16(out: number, data: number, count: number): void;
  softmaxRows(scores: number, rows: number, rowStride: number, firstVisible: number, scale: number): void;
  attendValues(out: number, p: number, v: number, rows: number, firstVisible: number, pStride: number, vStride: number, outStride: number, width: number): void;
  gatedSilu(gate: number, up: number, count: number): void;
  gatedSiluBackward(dGate: number, dUp: number, dh: number, gate: number, up: number, count: number): void;
  maskAboveDiagonal(matrix: number, rows: number, rowStride: number): void;
  causalSoftmaxBackward(dScores: number, probabilities: number, rows: number, rowStride: number, scale: number): void;
  gemm(
    out: number,
    a: number,
    b: number,
    rows: number,
    depth: number,
    columns: number,
    aRowStride: number,
    aDepthStride: number,
    bStride: number,
    outStride: number,
    accumulate: number,
    depthBlock: number,
    rowBlock: number,
  ): void;
}

/**
 * The binary of the kernel module (a few kilobytes), emitted from the functions' builders. With
 * `sharedMemory`, it imports a shared memory (of up to 4 GiB), which instances on several
 * threads import at once; the code is the same.
 */
export function buildKernelModule(options: { sharedMemory?: boolean } = {}): Uint8Array<ArrayBuffer> {
  const builder = new WasmModuleBuilder().importMemory('env', 'memory', 1, options.sharedMemory ? { maximumPages: MAXIMUM_WASM_PAGES } : undefined);
  addMatmul(builder);
  addSoftmaxRows(builder);
  addAttendValues(builder);
  addGatedSilu(builder);
  addMatmulUntransposed(builder);
  addGatedSiluBackward(builder);
  addMaskAboveDiagonal(builder);
  addCausalSoftmaxBackward(builder);
  addDequantize(builder);
  addMatmulQ8(builder);
  return builder.toBytes();
}

export type CompiledKernelModule = { module: WebAssembly.Module } | { unavailable: string };

/** Which memory the module imports: its own (unshared), or a shared one several threads import. */
export type KernelMemoryKind = 'unshared' | 'shared';

const compiled = new Map<KernelMemoryKind, CompiledKernelModule>();
const compiledAsynchronously = new Map<KernelMemoryKind, Promise<CompiledKernelModule>>();

/**
 * The compiled kernel module, or why this platform cannot run it (no WebAssembly, no
 * fixed-width SIMD, no shared memory for `'shared'`, or synchronous compilation refused, as on
 * some browsers' main thread). Validating the very module that will run, rather than a probe,
 * means "available" cannot disagree with "compiles". Emitted, validated and compiled once a
 * process per memory kind.
 */
export function compiledKernelModule(memory: KernelMemoryKind = 'unshared'): CompiledKernelModule {
  let module = compiled.get(memory);
  if (module === undefined) {
    module = compile(memory);
    compiled.set(memory, module);
  }
  return module;
}

/**
 * The same, compiled with `WebAssembly.compile`, which a browser's main thread allows at any
 * size (Chromium before 115 refused synchronous compilation there above 4 KB). Reuses a module
 * already compiled synchronously; compiled once a process otherwise.
 */
export function compiledKernelModuleAsync(memory: KernelMemoryKind = 'unshared'): Promise<CompiledKernelModule> {
  let module = compiledAsynchronously.get(memory);
  if (module === undefined) {
    const synchronous = compiled.get(memory);
    module = synchronous !== undefined && 'module' in synchronous ? Promise.resolve(synchronous) : compileAsync(memory);
    compiledAsynchronously.set(memory, module);
  }
  return module;
}

/** The module's bytes once validated, or why this platform cannot run them. */
function validatedBytes(memory: KernelMemoryKind): { bytes: Uint8Array<ArrayBuffer> } | { unavailable: string } {
  if (typeof WebAssembly !== 'object') return { unavailable: 'no WebAssembly on this platform' };
  if (memory === 'shared' && !WebAssembly.validate(buildKernelModule())) return { unavailable: 'no WebAssembly SIMD on this platform' };
  const bytes = buildKernelModule({ sharedMemory: memory === 'shared' });
  if (WebAssembly.validate(bytes)) return { bytes };
  return { unavailable: memory === 'shared' ? 'no shared WebAssembly memory on this platform' : 'no WebAssembly SIMD on this platform' };
}

const compileFailure = (error: unknown) => ({ unavailable: `the kernel module did not compile: ${error instanceof Error ? error.message : String(error)}` });

function compile(memory: KernelMemoryKind): CompiledKernelModule {
  const validated = validatedBytes(memory);
  if ('unavailable' in validated) return validated;
  try {
    return { module: new WebAssembly.Module(validated.bytes) };
  } catch (error) {
    return compileFailure(error);
  }
}

async function compileAsync(memory: KernelMemoryKind): Promise<CompiledKernelModule> {
  const validated = validatedBytes(memory);
  if ('unavailable' in validated) return validated;
  try {
    return { module: await WebAssembly.compile(validated.bytes) };
  } catch (error) {
    return compileFailure(error);
  }
}
