// The 0.5B forward against its own kernels (issue 23: the forward at >= 85% of the kernel's bench
// rate): on ONE thread, a Qwen2-0.5B-shaped PRM's forward of `--rows` x 256 tokens, as effective
// GFLOP/s (two flops per decoder-layer weight per token, attention and norms in the time but not
// in the work), against the same kernels' matmul alone on that forward's own products (one
// layer's seven projections at rows x 256, the weights prepared as the backend prepares them).
// Alternated rounds, medians; the share is each round's own.
//
//   pnpm --filter @reward-lens/backend-tiny bench:kernel-share [--rows 4] [--rounds 2]
import { parseArgs } from 'node:util';
import { describeMachine, median, qwen05bConfig, seconds, secondsAsync, useBundledTinyWorker } from '@reward-lens/bench-harness';
import { createRandomDecoder, type ForwardRequestV1 } from '@reward-lens/spec';
import { createTinyBackendAsync } from '../src/index.js';
import { createKernels } from '../src/kernels/kernel-choice.js';

const { values } = parseArgs({ options: { rows: { type: 'string', default: '4' }, rounds: { type: 'string', default: '2' } } });
const rows = Number(values.rows);
const rounds = Number(values.rounds);
const tokens = 256;
const config = qwen05bConfig();
await useBundledTinyWorker();
console.log(describeMachine(`one thread, ${rows} × ${tokens} tokens, medians of ${rounds} alternated rounds`));

const model = createRandomDecoder({ seed: 7, config });
const layerWeights = [...model.tensors].filter(([name]) => name.startsWith('model.layers.') && name.endsWith('_proj.weight'));
const decoderWeights = layerWeights.reduce((sum, [, tensor]) => sum + tensor.length, 0);
const backend = await createTinyBackendAsync(model, { threads: 1 });
const request: ForwardRequestV1 = {
  batchSize: rows,
  sequenceLength: tokens,
  inputIds: Int32Array.from({ length: rows * tokens }, (_, index) => (index * 7919 + 11) % 151643),
  attentionMask: new Uint8Array(rows * tokens).fill(1),
  reads: [{ kind: 'head', head: 'classifier', positions: Array.from({ length: rows }, () => [63, 127, 191, 255]) }],
};

// One layer's products as the forward computes them: x[rows·256, in] · W[out, in]ᵀ for q, k, v, o, gate, up, down.
const { hiddenSize, intermediateSize, numKvHeads, headDim } = config;
const shapes = [
  [hiddenSize, hiddenSize],
  [hiddenSize, numKvHeads * headDim],
  [hiddenSize, numKvHeads * headDim],
  [hiddenSize, hiddenSize],
  [hiddenSize, intermediateSize],
  [hiddenSize, intermediateSize],
  [intermediateSize, hiddenSize],
] as const;
const { kernels } = createKernels('wasm-simd', []);
const products = shapes.map(([inDim, outDim], index) => {
  const w = Float32Array.from({ length: outDim * inDim }, (_, at) => Math.cos(at + index));
  kernels.prepareWeights?.(w);
  return { inDim, outDim, w, x: Float32Array.from({ length: rows * tokens * inDim }, (_, at) => Math.sin(at)), out: new Float32Array(rows * tokens * outDim) };
});
const layerFlops = products.reduce((sum, { inDim, outDim }) => sum + 2 * rows * tokens * inDim * outDim, 0);
const kernelSeconds = () =>
  seconds(() => {
    for (const { inDim, outDim, w, x, out } of products) kernels.matmulTransposed(out, x, w, rows * tokens, inDim, outDim);
  });

try {
  // Warm both: V8 tiers the WebAssembly up in the background after some work.
  await backend.doForward(request);
  for (let warm = 0; warm < 3; warm++) kernelSeconds();
  const forwardRates: number[] = [];
  const kernelRates: number[] = [];
  for (let round = 0; round < rounds; round++) {
    forwardRates.push((2 * decoderWeights * rows * tokens) / (await secondsAsync(() => backend.doForward(request))) / 1e9);
    kernelRates.push(median([0, 1, 2].map(() => layerFlops / kernelSeconds() / 1e9)));
  }
  const share = median(forwardRates.map((rate, round) => rate / kernelRates[round]!));
  console.log(`  the forward (${(decoderWeights / 1e6).toFixed(1)}M decoder-layer weights)  ~${median(forwardRates).toFixed(1)} effective GFLOP/s`);
  console.log(`  its products alone (${shapes.length} per layer)          ~${median(kernelRates).toFixed(1)} GFLOP/s`);
  console.log(`  share of the kernels' rate: ${(share * 100).toFixed(0)}% (goal ≥ 85%); ${backend.info.description}`);
} finally {
  await backend.dispose();
}
