/**
 * `pnpm --filter @reward-lens/backend-webgpu bench [-- --full] [--hardware]`: forward-pass
 * throughput of the WebGPU backend over a grid of batch sizes and lengths, side by side with
 * backend-tiny and backend-onnx-node (one intra-op thread) on the same weights, run against
 * source. Without flags: hidden 128, 4 layers, batch 1/4(/8) × length 64/256, on a hardware
 * adapter when one answers and on SwiftShader otherwise (with a warning: software numbers say
 * nothing about GPUs). `--hardware` refuses a software adapter; `--full` is the GPU grid (hidden
 * 512, 8 layers, batch 1/8/32 × length 128/512/2048, a few minutes at most), which needs one.
 */
import { createRequire } from 'node:module';
import { createOnnxNodeBackend } from '@reward-lens/backend-onnx-node';
import { createTinyBackend } from '@reward-lens/backend-tiny';
import { createRandomDecoder, type BackendV1 } from '@reward-lens/spec';
import { exportDecoderToOnnx } from '@reward-lens/onnx-export';
import { createWebGpuBackend } from '../src/index.js';
import { describeMachine, median } from '@reward-lens/bench-harness';
import { BenchSetupError, benchGrid, parseBenchOptions, pickDevice } from './bench-setup.js';
import { forwardRequest, maxDifference, Reference, speedUp, timeCell, type CellTimes } from './grid-cell.js';

const options = (() => {
  try {
    return parseBenchOptions(process.argv.slice(2));
  } catch (error) {
    return exitOnSetupError(error);
  }
})();
const { device, software, description } = await pickDevice(options).catch(exitOnSetupError);
const { config, batches, lengths, repeats } = benchGrid(options, software);
const onnxruntimeVersion = (createRequire(import.meta.resolve('@reward-lens/backend-onnx-node'))('onnxruntime-node/package.json') as { version: string })
  .version;

console.log(`adapter: ${description}`);
console.log(describeMachine(`onnxruntime-node ${onnxruntimeVersion}`));
if (software) {
  console.log('WARNING: a software adapter runs the shaders on the CPU (SwiftShader turns every workgroup barrier into a');
  console.log('         coroutine switch). These numbers say nothing about WebGPU on a GPU; run this on a machine with one.');
}
const { hiddenSize, numLayers, numHeads, numKvHeads, intermediateSize } = config;
console.log(
  `model: llama hidden ${hiddenSize}, ${numLayers} layers, ${numHeads}/${numKvHeads} heads, intermediate ${intermediateSize}; value head read at every position`,
);

const model = createRandomDecoder({ seed: 1, config });
let start = performance.now();
const webgpu = await createWebGpuBackend(model, { device, allowSoftwareAdapter: !options.hardware });
const createdIn = (performance.now() - start) / 1000;
start = performance.now();
const onnx = await createOnnxNodeBackend(exportDecoderToOnnx(model, { withPast: false }), { intraOpThreads: 1, config: model.config });
console.log(
  `webgpu backend created in ${createdIn.toFixed(1)} s (weights uploaded, shaders compiled); onnx graph exported and loaded in ${((performance.now() - start) / 1000).toFixed(1)} s`,
);
const tiny = createTinyBackend(model);

const gridStart = performance.now();
// The CPU references are measured where a run fits the cap, and for the full grid only until 100 s into it, so that it ends within about three minutes.
const capMs = options.full ? 8000 : 30000;
const deadline = gridStart + (options.full ? 100_000 : 600_000);
const references = [new Reference('tiny', tiny, capMs, deadline), new Reference('onnx-node', onnx, capMs, deadline)];
console.log(
  `\ngrid: batch ${batches.join('/')} × length ${lengths.join('/')}${options.full ? ' (--full)' : ''}; webgpu: median of ${repeats} runs; ` +
    'CPU references (one thread each): median of 3 runs, 1 where a run takes over a second; runs alternate backend by backend',
);
const header = ['batch', 'length', 'webgpu ms', 'tok/s', 'tiny ms', 'tok/s', 'speed-up', 'onnx ms', 'tok/s', 'speed-up', 'max |Δ|'];
const widths = [5, 6, 10, 9, 9, 7, 8, 9, 7, 8, 8];
const line = (cells: string[]) => console.log(cells.map((cell, index) => cell.padStart(widths[index]!)).join(' '));
line(header);

for (const length of lengths) {
  for (const batchSize of batches) {
    const forward = forwardRequest(batchSize, length, config.vocabSize);
    const referenceRepeats = references.map((reference) => {
      if (reference.skipReason(batchSize, length) !== undefined) return 0;
      return (reference.predictMs(batchSize, length) ?? 0) < 1000 ? 3 : 1;
    });
    const [ours, ...theirs] = await timeCell([webgpu, ...references.map((reference) => reference.backend)], forward, [repeats, ...referenceRepeats]);
    const tokens = batchSize * length;
    const columns = (time: CellTimes | undefined, withSpeedUp: boolean) => {
      if (!time) return withSpeedUp ? ['—', '—', '—'] : ['—', '—'];
      const ms = median(time.samples);
      const cells = [ms.toFixed(1), ((tokens / ms) * 1000).toFixed(0)];
      return withSpeedUp ? [...cells, formatRatio(speedUp(ours!, time))] : cells;
    };
    theirs.forEach((time, index) => time && references[index]!.record(batchSize, length, median(time.samples)));
    const differences = theirs.filter((time) => time !== undefined).map((time) => maxDifference(ours!.values, time.values));
    line([
      String(batchSize),
      String(length),
      ...columns(ours, false),
      ...columns(theirs[0], true),
      ...columns(theirs[1], true),
      differences.length > 0 ? Math.max(...differences).toExponential(1) : '—',
    ]);
  }
}
console.log(`\nspeed-up: the reference's time over webgpu's, median over the runs made back to back; max |Δ|: webgpu against the references run`);
for (const reference of references) if (reference.skipped.length > 0) console.log(`${reference.label} skipped: ${reference.skipped.join(', ')}`);
console.log(`grid took ${((performance.now() - gridStart) / 1000).toFixed(0)} s`);

await Promise.all([webgpu, onnx, tiny].map((backend: BackendV1) => backend.dispose()));
device.destroy();

function formatRatio(ratio: number): string {
  return `${ratio >= 10 ? ratio.toFixed(1) : ratio >= 0.1 ? ratio.toFixed(2) : ratio.toPrecision(2)}×`;
}

function exitOnSetupError(error: unknown): never {
  if (!(error instanceof BenchSetupError)) throw error;
  console.error(`bench: ${error.message}`);
  process.exit(1);
}
