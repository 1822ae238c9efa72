import { spawnSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { benchDecoderConfig42M } from '@reward-lens/bench-harness';
import { resolveRecipe } from '@reward-lens/core';
import { writeDecoderFolder } from '@reward-lens/core/node';
import { createRandomDecoder, defineDecoderConfig } from '@reward-lens/spec';

const probe = fileURLToPath(new URL('./load-memory-probe.ts', import.meta.url));

/** Resident memory while loading a safetensors folder onto backend-tiny, through a weight arena and by copying, each in a process of its own. */
export async function compareLoadMemory(): Promise<void> {
  const config = defineDecoderConfig({ ...benchDecoderConfig42M, heads: resolveRecipe('trl-token-classification').heads });
  const model = createRandomDecoder({ seed: 1, config });
  const parameters = [...model.tensors.values()].reduce((sum, tensor) => sum + tensor.length, 0);
  const root = await mkdtemp(join(tmpdir(), 'reward-lens-load-memory-'));
  const folder = join(root, 'prm');
  const vocab = Object.fromEntries(Array.from({ length: 256 }, (_, byte) => [String.fromCharCode(byte + 0x100), byte]));
  await writeDecoderFolder(folder, {
    model,
    tokenizerJson: { model: { type: 'BPE', vocab, merges: [] } },
    hfConfig: { architectures: ['LlamaForTokenClassification'] },
  });
  console.log(
    `\nloading the 42M model's folder (float32 safetensors, ${(parameters / 1e6).toFixed(1)}M parameters) onto backend-tiny, 1 thread, each way in its own process:`,
  );
  const results: Record<string, { peak: number; settled: number; before: number; seconds: number }> = {};
  try {
    for (const mode of ['copy', 'arena', 'bf16', 'q8', 'q4'] as const) {
      const result = spawnSync(process.execPath, ['--expose-gc', ...process.execArgv, probe, '--folder', folder, '--mode', mode], {
        encoding: 'utf8',
        env: process.env,
      });
      if (result.status !== 0) throw new Error(`the load-memory probe failed: ${result.stderr}`);
      results[mode] = JSON.parse(result.stdout.trim().split('\n').at(-1)!);
    }
  } finally {
    await rm(root, { recursive: true, force: true });
  }
  const perParameter = (bytes: number) => (bytes / parameters).toFixed(2);
  for (const [mode, label] of [
    ['copy', 'read into arrays, then copied into the backend (before)'],
    ['arena', 'read into a weight arena, run where it lies (fromPretrained)'],
    ['bf16', "rounded to bf16 as read, into a weight arena (dtype: 'bf16')"],
    ['q8', "quantized to q8 as read, into a weight arena (dtype: 'q8')"],
    ['q4', "quantized to q4 as read, into a weight arena (dtype: 'q4')"],
  ] as const) {
    const { peak, settled, before, seconds } = results[mode]!;
    console.log(
      `  ${label.padEnd(62)} peak ${perParameter(peak - before)} bytes/parameter, after load ${perParameter(settled - before)}, ${seconds.toFixed(2)} s`,
    );
  }
  const ratio = (results.copy!.peak - results.copy!.before) / (results.arena!.peak - results.arena!.before);
  console.log(`  peak memory above the process's own: copy / arena = ${ratio.toFixed(2)}×`);
  const settled = (mode: string) => results[mode]!.settled - results[mode]!.before;
  console.log(
    `  memory after load: arena / bf16 = ${(settled('arena') / settled('bf16')).toFixed(2)}×, arena / q8 = ${(settled('arena') / settled('q8')).toFixed(2)}×, arena / q4 = ${(settled('arena') / settled('q4')).toFixed(2)}×`,
  );
}
