import { addGatedSiluBackward } from './activations-backward-simd.js';
import { addCausalSoftmaxBackward, addMaskAboveDiagonal } from './attention-backward-simd.js';
import { addGatedSilu, addSoftmaxRows } from './activations-simd.js';
import { addAttendValues } from './attention-values-simd.js';
import { addMatmul } from './matmul-simd.js';
import { addMatmulUntransposed } from './matmul-untransposed-simd.js';
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
  ): void;
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

/** The binary of the kernel module (a few kilobytes), emitted from the functions' builders. */
export function buildKernelModule(): Uint8Array<ArrayBuffer> {
  const builder = new WasmModuleBuilder().importMemory('env', 'memory', 1);
  addMatmul(builder);
  addSoftmaxRows(builder);
  addAttendValues(builder);
  addGatedSilu(builder);
  addMatmulUntransposed(builder);
  addGatedSiluBackward(builder);
  addMaskAboveDiagonal(builder);
  addCausalSoftmaxBackward(builder);
  return builder.toBytes();
}

type CompiledKernelModule = { module: WebAssembly.Module } | { unavailable: string };

let compiled: CompiledKernelModule | undefined;
let compiledAsynchronously: Promise<CompiledKernelModule> | undefined;

/**
 * The compiled kernel module, or why this platform cannot run it (no WebAssembly, no
 * fixed-width SIMD, or synchronous compilation refused, as on some browsers' main thread).
 * Validating the very module that will run, rather than a probe, means "available" cannot
 * disagree with "compiles". Emitted, validated and compiled once a process.
 */
export function compiledKernelModule(): CompiledKernelModule {
  compiled ??= compile();
  return compiled;
}

/**
 * The same, compiled with `WebAssembly.compile`, which a browser's main thread allows at any
 * size (Chromium before 115 refused synchronous compilation there above 4 KB). Reuses a module
 * already compiled synchronously; compiled once a process otherwise.
 */
export function compiledKernelModuleAsync(): Promise<CompiledKernelModule> {
  compiledAsynchronously ??= compiled !== undefined && 'module' in compiled ? Promise.resolve(compiled) : compileAsync();
  return compiledAsynchronously;
}

/** The module's bytes once validated, or why this platform cannot run them. */
function validatedBytes(): { bytes: Uint8Array<ArrayBuffer> } | { unavailable: string } {
  if (typeof WebAssembly !== 'object') return { unavailable: 'no WebAssembly on this platform' };
  const bytes = buildKernelModule();
  return WebAssembly.validate(bytes) ? { bytes } : { unavailable: 'no WebAssembly SIMD on this platform' };
}

const compileFailure = (error: unknown) => ({ unavailable: `the kernel module did not compile: ${error instanceof Error ? error.message : String(error)}` });

function compile(): CompiledKernelModule {
  const validated = validatedBytes();
  if ('unavailable' in validated) return validated;
  try {
    return { module: new WebAssembly.Module(validated.bytes) };
  } catch (error) {
    return compileFailure(error);
  }
}

async function compileAsync(): Promise<CompiledKernelModule> {
  const validated = validatedBytes();
  if ('unavailable' in validated) return validated;
  try {
    return { module: await WebAssembly.compile(validated.bytes) };
  } catch (error) {
    return compileFailure(error);
  }
}
