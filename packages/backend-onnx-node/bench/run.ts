/**
 * `pnpm --filter @reward-lens/backend-onnx-node bench`: backend-onnx-node against backend-tiny on
 * the same weights, side by side in one run (against source), then heads computed where they are
 * read on a large vocabulary. `bench -- heads` runs only the latter (a few minutes on 2 cores).
 */
import { createTinyBackend } from '@reward-lens/backend-tiny';
import { createRandomDecoder } from '@reward-lens/spec';
import { exportDecoderToOnnx } from '@reward-lens/onnx-export';
import { createOnnxNodeBackend } from '../src/index.js';
import { benchDecoderConfig } from '@reward-lens/bench-harness';
import { machineLine } from './bench-support.js';
import { compareDtypes } from './dtype-memory.js';
import { forwardThroughput } from './forward-throughput.js';
import { headReads } from './head-reads.js';
import { prefixCache } from './prefix-cache.js';
import { sdkOverhead } from './sdk-overhead.js';

console.log(machineLine());
const only = process.argv[2];
if (only === 'heads') {
  await headReads();
  process.exit(0);
}
const { hiddenSize, numLayers, numHeads, numKvHeads, intermediateSize } = benchDecoderConfig;
console.log(`model: hidden ${hiddenSize}, ${numLayers} layers, ${numHeads}/${numKvHeads} heads, intermediate ${intermediateSize}, seeded weights, value head`);

const model = createRandomDecoder({ seed: 1, config: benchDecoderConfig });
const graph = exportDecoderToOnnx(model, { withPast: true });
const tiny = createTinyBackend(model);
const onnx = await createOnnxNodeBackend(graph, { config: model.config, intraOpThreads: 1 });

await forwardThroughput(tiny, onnx);
await sdkOverhead(onnx, graph);
await prefixCache([
  { label: 'backend-tiny', backend: tiny },
  { label: 'backend-onnx-node', backend: onnx },
]);

await onnx.dispose();
await tiny.dispose();

await compareDtypes();

await headReads();
