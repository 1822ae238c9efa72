import { spawnSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { benchDecoderConfig42M } from '@reward-lens/bench-harness';
import { exportDecoderToOnnx } from '@reward-lens/onnx-export';
import { createRandomDecoder } from '@reward-lens/spec';

const probe = fileURLToPath(new URL('./dtype-probe.ts', import.meta.url));

/**
 * The bench model exported with fp32, q8 and q4 projections (MatMulNBits), and as a float16 graph
 * (model_fp16.onnx), and run on onnx-node,
 * each in a process of its own: resident memory after loading per parameter, the forward's time
 * against fp32's, and the value head's largest difference from fp32's (random weights).
 */
export async function compareDtypes(): Promise<void> {
  const model = createRandomDecoder({ seed: 1, config: benchDecoderConfig42M });
  const parameters = [...model.tensors.values()].reduce((sum, tensor) => sum + tensor.length, 0);
  const root = await mkdtemp(join(tmpdir(), 'reward-lens-onnx-dtypes-'));
  const results: Record<string, { before: number; afterLoad: number; seconds: number; read: number[] }> = {};
  try {
    for (const dtype of ['fp32', 'fp16', 'q8', 'q4'] as const) {
      const path = join(root, `${dtype}.onnx`);
      await writeFile(path, exportDecoderToOnnx(model, { withPast: true, dtype }));
      const result = spawnSync(process.execPath, [...process.execArgv, probe, '--graph', path], { encoding: 'utf8', env: process.env });
      if (result.status !== 0) throw new Error(`the dtype probe failed: ${result.stderr}`);
      results[dtype] = JSON.parse(result.stdout.trim().split('\n').at(-1)!);
    }
  } finally {
    await rm(root, { recursive: true, force: true });
  }
  console.log(
    `\nonnx-node by weight dtype (${(parameters / 1e6).toFixed(1)}M parameters, 1 intra-op thread, each in its own process; forward 8 × 256 tokens, best of 2):`,
  );
  const fp32 = results.fp32!;
  for (const [dtype, result] of Object.entries(results)) {
    const deviation = Math.max(...result.read.map((value, index) => Math.abs(value - fp32.read[index]!)));
    console.log(
      `  ${dtype.padEnd(5)} after load ${((result.afterLoad - result.before) / parameters).toFixed(2)} bytes/parameter  forward ${result.seconds.toFixed(2)} s (${(result.seconds / fp32.seconds).toFixed(2)}× fp32)` +
        (dtype === 'fp32' ? '' : `  max |Δ value| ${deviation.toExponential(2)}`),
    );
  }
}
