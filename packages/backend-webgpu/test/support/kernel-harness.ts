import { DispatchRecorder } from '../../src/device/dispatch-recorder.js';
import { BufferUsage } from '../../src/device/gpu-constants.js';
import { GpuRuntime } from '../../src/device/gpu-runtime.js';
import { compileKernelSet, type KernelSet } from '../../src/shaders/kernel-set.js';
import { sharedSoftwareDevice } from './software-gpu.js';

/** Kernels on the test file's shared SwiftShader device, with helpers to upload and read back. */
export interface KernelHarness {
  runtime: GpuRuntime;
  kernels: KernelSet;
  /** A storage buffer holding `values` (f32) or, for a Uint32Array, those words. */
  upload(values: Float32Array | Uint32Array): GPUBuffer;
  /** Runs what `record` records, then reads `length` floats of `output`. */
  run(record: (recorder: DispatchRecorder) => void, output: GPUBuffer, length: number): Promise<Float32Array>;
}

export async function createKernelHarness(headDim = 16): Promise<KernelHarness> {
  const runtime = new GpuRuntime(await sharedSoftwareDevice(), { ownsDevice: false, timeoutMs: 60_000 });
  const kernels = await compileKernelSet(runtime, ['f32'], headDim, runtime.placeholder);
  const usage = BufferUsage.STORAGE | BufferUsage.COPY_SRC | BufferUsage.COPY_DST;
  return {
    runtime,
    kernels,
    upload: (values) => runtime.uploadBuffer('test data', values, usage),
    async run(record, output, length) {
      const bytes = await runtime.submitAndRead('test kernels', (encoder) => {
        const recorder = new DispatchRecorder(runtime);
        record(recorder);
        return { source: output, byteLength: length * 4, transient: recorder.encode(encoder) };
      });
      return new Float32Array(bytes);
    },
  };
}

/** Deterministic values in [-1, 1). */
export function seededValues(length: number, seed: number): Float32Array {
  let state = seed >>> 0 || 1;
  return Float32Array.from({ length }, () => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return ((state >>> 0) / 4294967296) * 2 - 1;
  });
}
