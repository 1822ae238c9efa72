/**
 * `pnpm --filter @reward-lens/backend-webgpu bench:dtypes [-- --small]`: a Qwen2-0.5B-shaped PRM
 * (494.8M random parameters, Qwen2.5-Math-PRM's head; `--small` a 4-layer, 256-wide stand-in) on
 * the WebGPU backend at each dtype, one after another on one device: the bytes per parameter its
 * weights take on the GPU (what the backend's description says), the time to create it (the
 * weights rounded or quantized, uploaded, the shaders compiled), one forward of 16 tokens, and the
 * largest difference of its head's outputs from fp32's and from backend-tiny's at the same dtype
 * (the same rounded or quantized weights, computed independently; tiny's q8 runs on integers
 * over 16-bit activations, so it differs by that rounding) and from core's float64 oracle over
 * those weights dequantized (`dequantizedModel`), which shares no code with either backend. A dtype whose buffers the adapter cannot
 * hold says so and the next is tried. On a software adapter the times say nothing about a GPU.
 */
import { describeMachine } from '@reward-lens/bench-harness';
import { qwen05bConfig } from '@reward-lens/bench-harness';
import { createTinyBackend } from '@reward-lens/backend-tiny';
import { createReferenceBackend, dequantizedModel } from '@reward-lens/core/testing';
import { createRandomDecoder, type ForwardRequestV1 } from '@reward-lens/spec';
import { createWebGpuBackend } from '../src/index.js';
import { pickDevice } from './bench-setup.js';

const small = process.argv.includes('--small');
const { device, description } = await pickDevice({ full: false, hardware: false });
console.log(`adapter: ${description}`);
console.log(describeMachine(`maxStorageBufferBindingSize ${(device.limits.maxStorageBufferBindingSize / 2 ** 20).toFixed(0)} MiB`));
const config = qwen05bConfig(small);
let started = performance.now();
const model = createRandomDecoder({ seed: 5, config });
console.log(`model: Qwen2-0.5B-shaped${small ? ' (small)' : ''}, made in ${((performance.now() - started) / 1000).toFixed(1)} s`);

const tokens = 16;
const inputIds = Int32Array.from({ length: tokens }, (_, index) => (index * 7919 + 13) % config.vocabSize);
const request: ForwardRequestV1 = {
  batchSize: 1,
  sequenceLength: tokens,
  inputIds,
  attentionMask: new Uint8Array(tokens).fill(1),
  reads: [{ kind: 'head', head: config.heads[0]!.name, positions: [Array.from({ length: tokens }, (_, index) => index)] }],
};

let reference: Float32Array | undefined;
console.log(
  '\n  dtype   bytes/parameter on the GPU   create     forward (16 tokens)   max |Δ| of the head vs fp32   vs backend-tiny, same dtype   vs float64 oracle, same weights',
);
for (const dtype of ['fp32', 'bf16', 'q8', 'q4'] as const) {
  started = performance.now();
  let backend: Awaited<ReturnType<typeof createWebGpuBackend>>;
  try {
    backend = await createWebGpuBackend(model, { device, allowSoftwareAdapter: true, dtype });
  } catch (error) {
    console.log(`  ${dtype.padEnd(6)}  could not be created: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`);
    continue;
  }
  const created = (performance.now() - started) / 1000;
  started = performance.now();
  const values = (await backend.doForward(request)).reads[0]!.values[0]!;
  const forward = (performance.now() - started) / 1000;
  const perParameter = /, (\d+\.\d\d) bytes\/parameter on the GPU$/.exec(backend.info.description)?.[1] ?? '?';
  reference ??= dtype === 'fp32' ? values : undefined;
  await backend.dispose();
  const largestDifference = (other: Float32Array) => Math.max(...values.map((value, index) => Math.abs(value - other[index]!))).toExponential(2);
  const tiny = createTinyBackend(model, { dtype, threads: 2 });
  const tinyValues = (await tiny.doForward(request)).reads[0]!.values[0]!;
  await tiny.dispose();
  const oracleValues = (await createReferenceBackend(dequantizedModel(model, dtype)).doForward(request)).reads[0]!.values[0]!;
  const difference = reference ? largestDifference(reference) : '- (no fp32 run)';
  console.log(
    `  ${dtype.padEnd(6)}  ${perParameter.padStart(15)}              ${created.toFixed(1).padStart(6)} s   ${forward.toFixed(2).padStart(8)} s            ${difference.padEnd(14)}   ${largestDifference(tinyValues).padEnd(27)} ${largestDifference(oracleValues)}`,
  );
}
