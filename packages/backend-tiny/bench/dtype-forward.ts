import { benchDecoderConfig42M, median, secondsAsync } from '@reward-lens/bench-harness';
import { createRandomDecoder, type BackendV1, type ForwardRequestV1 } from '@reward-lens/spec';
import { createTinyBackend, type TinyDtype } from '../src/index.js';

const batchSize = 4;
const sequenceLength = 256;

function request(rows: number, length: number): ForwardRequestV1 {
  const cells = rows * length;
  return {
    batchSize: rows,
    sequenceLength: length,
    inputIds: Int32Array.from({ length: cells }, (_, index) => (index * 7919) % benchDecoderConfig42M.vocabSize),
    attentionMask: new Uint8Array(cells).fill(1),
    reads: [{ kind: 'head', head: 'value', positions: Array.from({ length: rows }, () => [length - 1]) }],
  };
}

/**
 * The 42M model's forward pass with the weights held as fp32, bf16, q8 and q4 (wasm-simd, one
 * thread), timed in turn in 5 rounds, each dtype's time the median of its rounds and its ratio
 * the median of its time over fp32's in the same round (the machine is shared: a round's load is
 * the same for all four), with the value head's largest difference from fp32's. q8 runs on
 * integers (`i32x4.dot_i16x8_s`); bf16 and q4 widen a block of weights per product.
 */
export async function compareDtypeForward(): Promise<void> {
  const model = createRandomDecoder({ seed: 1, config: benchDecoderConfig42M });
  const dtypes: TinyDtype[] = ['fp32', 'bf16', 'q8', 'q4'];
  const backends = new Map<TinyDtype, BackendV1>(dtypes.map((dtype) => [dtype, createTinyBackend(model, { kernels: 'wasm-simd', threads: 1, dtype })]));
  const big = request(batchSize, sequenceLength);
  // One whole pass each first: V8 moves hot WebAssembly functions to optimized code in the background.
  for (const backend of backends.values()) await backend.doForward(big);
  const seconds = new Map<TinyDtype, number[]>(dtypes.map((dtype) => [dtype, []]));
  const values = new Map<TinyDtype, Float32Array[]>();
  for (let round = 0; round < 5; round++) {
    for (const dtype of dtypes) {
      let result: Awaited<ReturnType<BackendV1['doForward']>> | undefined;
      seconds.get(dtype)!.push(await secondsAsync(async () => (result = await backends.get(dtype)!.doForward(big))));
      values.set(dtype, result!.reads[0]!.values);
    }
  }
  const fp32Rounds = seconds.get('fp32')!;
  console.log(
    `\nthe 42M model's forward by weight dtype, batch ${batchSize} × ${sequenceLength} tokens, wasm-simd, 1 thread (median of 5 interleaved rounds):`,
  );
  for (const dtype of dtypes) {
    const time = median(seconds.get(dtype)!);
    const speedup = median(seconds.get(dtype)!.map((own, round) => fp32Rounds[round]! / own));
    const deviation = Math.max(
      ...values.get(dtype)!.flatMap((row, index) => [...row].map((value, column) => Math.abs(value - values.get('fp32')![index]![column]!))),
    );
    console.log(
      `  ${dtype.padEnd(5)} ${time.toFixed(2).padStart(6)} s  ${((batchSize * sequenceLength) / time).toFixed(0).padStart(6)} tokens/s  speed / fp32's ${speedup.toFixed(2)}×` +
        (dtype === 'fp32' ? '' : `  max |Δ value| vs fp32 ${deviation.toExponential(2)} (random weights)`),
    );
  }
  for (const dtype of dtypes.slice(1))
    console.log(`  ${dtype} products: ${backends.get(dtype)!.info.description.match(/products=\[(.*)\]/)?.[1] ?? 'float32'}`);
  await Promise.all([...backends.values()].map((backend) => backend.dispose()));
}
