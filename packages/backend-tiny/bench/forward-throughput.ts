import { benchDecoderConfig, median, secondsAsync } from '@reward-lens/bench-harness';
import { createRandomDecoder, type BackendV1, type ForwardRequestV1 } from '@reward-lens/spec';
import { createTinyBackend } from '../src/index.js';

const batchSize = 8;
const sequenceLength = 512;

function request(rows: number, length: number): ForwardRequestV1 {
  const cells = rows * length;
  const positions = Array.from({ length: rows }, () => Array.from({ length }, (_, index) => index));
  return {
    batchSize: rows,
    sequenceLength: length,
    inputIds: Int32Array.from({ length: cells }, (_, index) => (index * 7919) % benchDecoderConfig.vocabSize),
    attentionMask: new Uint8Array(cells).fill(1),
    reads: [{ kind: 'head', head: 'value', positions }],
  };
}

/**
 * Forward tokens/s on both kernel sets, one model, one request. The scalar forward is timed
 * once (it takes seconds), between two timed WebAssembly forwards.
 */
export async function compareForward(): Promise<void> {
  const config = benchDecoderConfig;
  const model = createRandomDecoder({ seed: 1, config });
  const backends: Record<'scalar' | 'wasm-simd', BackendV1> = {
    scalar: createTinyBackend(model, { kernels: 'scalar', threads: 1 }),
    'wasm-simd': createTinyBackend(model, { kernels: 'wasm-simd', threads: 1 }),
  };
  for (const backend of Object.values(backends)) await backend.doForward(request(2, 64));
  const big = request(batchSize, sequenceLength);
  const simd = [await secondsAsync(() => backends['wasm-simd'].doForward(big))];
  const scalar = await secondsAsync(() => backends.scalar.doForward(big));
  simd.push(await secondsAsync(() => backends['wasm-simd'].doForward(big)));
  const simdSeconds = median(simd);

  const tokens = batchSize * sequenceLength;
  const { hiddenSize: h, intermediateSize: m, numHeads, numKvHeads, headDim, numLayers } = config;
  const projectionFlops = 2 * tokens * numLayers * (h * numHeads * headDim * 2 + 2 * h * numKvHeads * headDim + 3 * h * m);
  const attentionFlops = 4 * batchSize * numLayers * numHeads * headDim * ((sequenceLength * (sequenceLength + 1)) / 2);
  const gflops = (seconds: number) => ((projectionFlops + attentionFlops) / seconds / 1e9).toFixed(1);
  console.log(`\nforward, batch ${batchSize} × ${sequenceLength} tokens, value head at every position:`);
  console.log(`  scalar     ${scalar.toFixed(2).padStart(6)} s  ${(tokens / scalar).toFixed(0).padStart(6)} tokens/s  ${gflops(scalar)} GFLOP/s overall`);
  console.log(
    `  wasm-simd  ${simdSeconds.toFixed(2).padStart(6)} s  ${(tokens / simdSeconds).toFixed(0).padStart(6)} tokens/s  ${gflops(simdSeconds)} GFLOP/s overall (median of 2)`,
  );
  console.log(`  ratio      ${(scalar / simdSeconds).toFixed(1)}×`);
  console.log(`  work: projections ${(projectionFlops / 1e9).toFixed(1)} GFLOP, attention ${(attentionFlops / 1e9).toFixed(1)} GFLOP`);
  await Promise.all(Object.values(backends).map((backend) => backend.dispose()));
}
