/**
 * `pnpm --filter @reward-lens/backend-webgpu bench [--full]`: forward-pass throughput of the
 * WebGPU backend over a grid of batch sizes and lengths, side by side with backend-tiny on the
 * same weights (run against source). Uses a hardware adapter when there is one, SwiftShader
 * otherwise (with a warning: software numbers say nothing about GPUs).
 */
import { cpus } from 'node:os';
import { createTinyBackend } from '@reward-lens/backend-tiny';
import { createRandomDecoder, defineDecoderConfig, type BackendV1, type ForwardRequestV1 } from '@reward-lens/core/internal';
import { acquireDevice, createWebGpuBackend, describeAdapterInfo, getNodeGpu, requestWebGpuAdapter } from '../src/index.js';

const full = process.argv.includes('--full');
const config = defineDecoderConfig({
  architecture: 'llama',
  hiddenSize: 128,
  numLayers: 4,
  numHeads: 4,
  numKvHeads: 2,
  intermediateSize: 352,
  vocabSize: 512,
  maxPositions: 1024,
  ropeTheta: 10000,
  rmsNormEps: 1e-5,
  tieWordEmbeddings: true,
  attentionBias: false,
  heads: [{ name: 'value', kind: 'value', weight: 'v_head.weight' }],
});

async function pickDevice(): Promise<{ device: GPUDevice; software: boolean; description: string }> {
  let hardware: GPUAdapter | null = null;
  try {
    hardware = await requestWebGpuAdapter({ powerPreference: 'high-performance' });
  } catch {
    hardware = null;
  }
  const acquired = hardware
    ? await acquireDevice({ adapter: hardware, allowSoftwareAdapter: true })
    : await acquireDevice({ gpu: await getNodeGpu({ software: true }), allowSoftwareAdapter: true });
  return { device: acquired.device, software: acquired.software, description: describeAdapterInfo(acquired.info) };
}

function request(batchSize: number, length: number): ForwardRequestV1 {
  const cells = batchSize * length;
  return {
    batchSize,
    sequenceLength: length,
    inputIds: Int32Array.from({ length: cells }, (_, index) => (index * 7919) % config.vocabSize),
    attentionMask: new Uint8Array(cells).fill(1),
    reads: [{ kind: 'head', head: 'value', positions: Array.from({ length: batchSize }, () => Array.from({ length }, (_, index) => index)) }],
  };
}

/** Median milliseconds per forward over `repeats` runs after one warm-up; the last result too. */
async function time(backend: BackendV1, forward: ForwardRequestV1, repeats: number): Promise<{ ms: number; values: Float32Array[] }> {
  let values = (await backend.doForward(forward)).reads[0]!.values;
  const samples: number[] = [];
  for (let repeat = 0; repeat < repeats; repeat++) {
    const start = performance.now();
    values = (await backend.doForward(forward)).reads[0]!.values;
    samples.push(performance.now() - start);
  }
  samples.sort((a, b) => a - b);
  return { ms: samples[Math.floor(samples.length / 2)]!, values };
}

const { device, software, description } = await pickDevice();
console.log(`adapter: ${description}`);
console.log(`machine: ${cpus()[0]?.model ?? 'unknown CPU'}, ${cpus().length} logical cores, Node ${process.version}`);
if (software) {
  console.log('WARNING: a software adapter runs the shaders on the CPU (SwiftShader turns every workgroup barrier into a');
  console.log('         coroutine switch). These numbers say nothing about WebGPU on a GPU; run this on a machine with one.');
}
console.log(
  `model: llama hidden ${config.hiddenSize}, ${config.numLayers} layers, ${config.numHeads}/${config.numKvHeads} heads, intermediate ${config.intermediateSize}; value head read at every position`,
);

const model = createRandomDecoder({ seed: 1, config });
let start = performance.now();
const webgpu = await createWebGpuBackend(model, { device, allowSoftwareAdapter: true });
console.log(`backend created in ${((performance.now() - start) / 1000).toFixed(1)} s (weights uploaded, shaders compiled)\n`);
const tiny = createTinyBackend(model);

const batches = full ? [1, 4, 8] : software ? [1, 4] : [1, 4, 8];
const lengths = full ? [64, 256] : software ? [64, 256] : [64, 256];
const repeats = software ? 2 : 5;
console.log(`grid: batch ${batches.join('/')} × length ${lengths.join('/')}${full ? ' (--full)' : software ? ' (pass --full for batch 8)' : ''}, median of ${repeats} runs`);
console.log('batch  length   webgpu ms  webgpu tok/s     tiny ms    tiny tok/s  webgpu speed-up  max |Δ| vs tiny');
start = performance.now();
for (const batchSize of batches) {
  for (const length of lengths) {
    const forward = request(batchSize, length);
    const ours = await time(webgpu, forward, repeats);
    const theirs = await time(tiny, forward, Math.min(repeats, 3));
    let difference = 0;
    ours.values.forEach((row, index) => row.forEach((value, position) => (difference = Math.max(difference, Math.abs(value - theirs.values[index]![position]!)))));
    const tokens = batchSize * length;
    console.log(
      [
        String(batchSize).padStart(5),
        String(length).padStart(7),
        ours.ms.toFixed(1).padStart(11),
        ((tokens / ours.ms) * 1000).toFixed(0).padStart(13),
        theirs.ms.toFixed(1).padStart(11),
        ((tokens / theirs.ms) * 1000).toFixed(0).padStart(13),
        `${(theirs.ms / ours.ms).toFixed(2)}×`.padStart(16),
        difference.toExponential(1).padStart(16),
      ].join(' '),
    );
  }
}
console.log(`\ngrid took ${((performance.now() - start) / 1000).toFixed(0)} s`);
await webgpu.dispose();
device.destroy();
