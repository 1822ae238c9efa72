// Speed per core at real size (issue 23): one forward of `--rows` × 256 tokens on ONE thread, on a
// Qwen2-0.5B-shaped PRM (random weights, Qwen2.5-Math-PRM's head): onnx-node fp32 (onnxruntime,
// AVX-512 with FMA here) against backend-tiny fp32 and q8 (int8 products through
// i32x4.dot_i16x8_s). Alternated rounds, medians; the ratios are each round's own.
//
//   pnpm --filter @reward-lens/integration-tests bench:forward-per-core [--rows 4] [--rounds 2]
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { createOnnxNodeBackend } from '@reward-lens/backend-onnx-node';
import { createTinyBackendAsync } from '@reward-lens/backend-tiny';
import { describeMachine, median, secondsAsync } from '@reward-lens/bench-harness';
import { exportDecoderToOnnx } from '@reward-lens/onnx-export';
import { qwen05bConfig } from '@reward-lens/bench-harness';
import { type BackendV1, createRandomDecoder, type ForwardRequestV1 } from '@reward-lens/spec';

const { values } = parseArgs({ options: { rows: { type: 'string', default: '4' }, rounds: { type: 'string', default: '2' } } });
const rows = Number(values.rows);
const rounds = Number(values.rounds);
const config = qwen05bConfig();
const tokens = 256;
const request: ForwardRequestV1 = {
  batchSize: rows,
  sequenceLength: tokens,
  inputIds: Int32Array.from({ length: rows * tokens }, (_, index) => (index * 7919 + 11) % 151643),
  attentionMask: new Uint8Array(rows * tokens).fill(1),
  reads: [{ kind: 'head', head: 'classifier', positions: Array.from({ length: rows }, () => [63, 127, 191, 255]) }],
};

console.log(describeMachine(`one thread each, ${rows} × ${tokens} tokens, medians of ${rounds} alternated rounds`));
const model = createRandomDecoder({ seed: 7, config });
const parameters = [...model.tensors.values()].reduce((sum, tensor) => sum + tensor.length, 0) / 1e6;
console.log(`model: Qwen2-0.5B shape, ${parameters.toFixed(1)}M parameters, random weights`);
const folder = await mkdtemp(join(tmpdir(), 'reward-lens-per-core-'));
const backends: [string, BackendV1][] = [];
try {
  const file = join(folder, 'model.onnx');
  await writeFile(file, exportDecoderToOnnx(model, { withPast: false }));
  backends.push(['onnx-node fp32', await createOnnxNodeBackend(file, { config, decoder: model, intraOpThreads: 1 })]);
  backends.push(['backend-tiny fp32', await createTinyBackendAsync(model, { threads: 1 })]);
  backends.push(['backend-tiny q8', await createTinyBackendAsync(model, { threads: 1, dtype: 'q8' })]);
  const times = backends.map((): number[] => []);
  for (const [, backend] of backends) await backend.doForward(request);
  for (let round = 0; round < rounds; round++) {
    for (const [index, [, backend]] of backends.entries()) times[index]!.push(await secondsAsync(() => backend.doForward(request)));
  }
  for (const [index, [label]] of backends.entries()) {
    const ratio = median(times[index]!.map((time, round) => time / times[0]![round]!));
    // The products' work: two flops per weight of the decoder layers per token (the embedding table is looked up, not multiplied).
    const rate = (2 * (parameters * 1e6 - config.vocabSize * config.hiddenSize) * rows * tokens) / median(times[index]!) / 1e9;
    console.log(
      `  ${label.padEnd(18)} ${median(times[index]!).toFixed(2).padStart(7)} s   ${ratio.toFixed(2)}× onnx-node's time   ~${rate.toFixed(1)} effective GFLOP/s`,
    );
  }
} finally {
  for (const [, backend] of backends) await backend.dispose();
  await rm(folder, { recursive: true, force: true });
}
