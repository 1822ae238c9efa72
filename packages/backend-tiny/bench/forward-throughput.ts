import { cpus } from 'node:os';
import { createRandomDecoder, defineDecoderConfig, type ForwardRequestV1 } from '@reward-lens/core/internal';
import { createTinyBackend } from '../src/index.js';
import { matmulTransposed } from '../src/kernels/matmul.js';

const config = defineDecoderConfig({
  architecture: 'llama',
  hiddenSize: 256,
  numLayers: 4,
  numHeads: 8,
  numKvHeads: 8,
  // Llama's 8/3 ratio, rounded up to a multiple of 16.
  intermediateSize: 688,
  vocabSize: 512,
  maxPositions: 1024,
  ropeTheta: 10000,
  rmsNormEps: 1e-5,
  tieWordEmbeddings: true,
  attentionBias: false,
  heads: [{ name: 'value', kind: 'value', weight: 'v_head.weight' }],
});
const batchSize = 8;
const sequenceLength = 512;

function seconds<T>(work: () => T): [T, number] {
  const start = performance.now();
  const result = work();
  return [result, (performance.now() - start) / 1000];
}

/** One dot product at a time: the layout every tiled kernel is measured against. */
function matmulOneDotAtATime(out: Float32Array, x: Float32Array, w: Float32Array, rows: number, inDim: number, outDim: number): void {
  for (let row = 0; row < rows; row++) {
    for (let column = 0; column < outDim; column++) {
      let sum = 0;
      for (let k = 0; k < inDim; k++) sum += x[row * inDim + k]! * w[column * inDim + k]!;
      out[row * outDim + column] = sum;
    }
  }
}

function matmulGflops(kernel: typeof matmulOneDotAtATime, rows: number, inDim: number, outDim: number): number {
  const x = Float32Array.from({ length: rows * inDim }, (_, index) => Math.sin(index));
  const w = Float32Array.from({ length: outDim * inDim }, (_, index) => Math.cos(index));
  const out = new Float32Array(rows * outDim);
  kernel(out, x, w, rows, inDim, outDim);
  const repeats = 5;
  const [, elapsed] = seconds(() => {
    for (let repeat = 0; repeat < repeats; repeat++) kernel(out, x, w, rows, inDim, outDim);
  });
  return (2 * rows * inDim * outDim * repeats) / elapsed / 1e9;
}

function request(rows: number, length: number): ForwardRequestV1 {
  const cells = rows * length;
  const positions = Array.from({ length: rows }, () => Array.from({ length }, (_, index) => index));
  return {
    batchSize: rows,
    sequenceLength: length,
    inputIds: Int32Array.from({ length: cells }, (_, index) => (index * 7919) % config.vocabSize),
    attentionMask: new Uint8Array(cells).fill(1),
    reads: [{ kind: 'head', head: 'value', positions }],
  };
}

const cpu = cpus()[0]?.model ?? 'unknown CPU';
console.log(`machine: ${cpu}, ${cpus().length} logical cores, Node ${process.version}, single-threaded`);
console.log(`model: hidden ${config.hiddenSize}, ${config.numLayers} layers, ${config.numHeads}/${config.numKvHeads} heads, intermediate ${config.intermediateSize}`);

console.log('\nmatmul (x[rows, in] · W[out, in]ᵀ), GFLOP/s, 4×4 tile vs one dot product at a time:');
const tiledRates: number[] = [];
for (const [rows, inDim, outDim, label] of [
  [512, 256, 256, 'q/k/v/o projection'],
  [256, 256, 688, 'gate/up projection'],
  [256, 688, 256, 'down projection'],
] as const) {
  const tiled = matmulGflops(matmulTransposed, rows, inDim, outDim);
  const naive = matmulGflops(matmulOneDotAtATime, rows, inDim, outDim);
  tiledRates.push(tiled);
  console.log(`  ${label.padEnd(20)} [${rows}×${inDim}]·[${outDim}×${inDim}]ᵀ  tiled ${tiled.toFixed(2)}  one-dot ${naive.toFixed(2)}  ratio ${(tiled / naive).toFixed(2)}×`);
}

const backend = createTinyBackend(createRandomDecoder({ seed: 1, config }));
await backend.doForward(request(2, 64));
const start = performance.now();
await backend.doForward(request(batchSize, sequenceLength));
const elapsed = (performance.now() - start) / 1000;
const tokens = batchSize * sequenceLength;
const { hiddenSize: h, intermediateSize: m, numHeads, numKvHeads, headDim, numLayers } = config;
const projectionFlops = 2 * tokens * numLayers * (h * numHeads * headDim * 2 + 2 * h * numKvHeads * headDim + 3 * h * m);
const attentionFlops = 4 * batchSize * numLayers * numHeads * headDim * ((sequenceLength * (sequenceLength + 1)) / 2);
console.log(`\nforward, batch ${batchSize} × ${sequenceLength} tokens, value head at every position (one timed run):`);
console.log(`  ${elapsed.toFixed(2)} s, ${(tokens / elapsed).toFixed(0)} tokens/s, ${((projectionFlops + attentionFlops) / elapsed / 1e9).toFixed(2)} GFLOP/s overall`);
const matmulRate = tiledRates.reduce((sum, rate) => sum + rate, 0) / tiledRates.length;
console.log(`  ${((projectionFlops + attentionFlops) / elapsed / 1e9 / matmulRate * 100).toFixed(0)}% of the tiled matmul rate measured above (the rest: attention softmax, norms, copies)`);
console.log(`  work: projections ${(projectionFlops / 1e9).toFixed(1)} GFLOP, attention ${(attentionFlops / 1e9).toFixed(1)} GFLOP`);
await backend.dispose();
