/**
 * `pnpm --filter @reward-lens/cli bench`: peak memory of `reward-lens score --file` over a stream
 * of ProcessBench GSM8K records (varying lengths, 200 to 2,400 tokens), on every backend, at two
 * stream lengths, each run in a process of its own. A backend whose memory grows with the
 * number of records (onnx-node's did: 6.5 GB for 600 records) shows a ratio well above 1.
 */
import { spawnSync } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { convertLlama2cToHf, createRandomDecoder, defineDecoderConfig } from '@reward-lens/core';
import { writeDecoderFolder } from '@reward-lens/core/node';
import { describeMachine } from '@reward-lens/bench-harness';
import { sharedDataPath } from '@reward-lens/test-data';

interface ProbeResult {
  peakMiB: number;
  seconds: number;
  exitCode: number;
  stderr: string;
}

/** stories260K's shape (hidden 64, 5 layers, 8/4 heads) with a value head, random weights and its tokenizer, 4,096 positions. */
async function writeBenchModel(folder: string): Promise<void> {
  const stories = convertLlama2cToHf(
    { bytes: await readFile(sharedDataPath('stories260k/stories260K.bin')), fileName: 'stories260K.bin' },
    { bytes: await readFile(sharedDataPath('stories260k/tok512.bin')), fileName: 'tok512.bin' },
  );
  const config = defineDecoderConfig({
    ...stories.model.config,
    maxPositions: 4096,
    heads: [{ name: 'value', kind: 'value', weight: 'score.weight' }],
  });
  await writeDecoderFolder(folder, {
    model: createRandomDecoder({ seed: 3, config }),
    tokenizerJson: stories.tokenizerJson,
    tokenizerConfig: stories.tokenizerConfig,
    hfConfig: { architectures: ['LlamaForSequenceClassification'], bosTokenId: 1, eosTokenId: 2 },
  });
}

function probe(folder: string, backend: string, records: string): ProbeResult {
  const script = fileURLToPath(new URL('./stream-memory-probe.ts', import.meta.url));
  // Without a GPU, webgpu runs on SwiftShader (named, it takes a software adapter).
  const env = { ...process.env, VK_DRIVER_FILES: process.env.VK_DRIVER_FILES ?? '/usr/lib/chromium/vk_swiftshader_icd.json' };
  const child = spawnSync(process.execPath, [...process.execArgv, script, folder, backend, records], { encoding: 'utf8', env });
  const last = child.stdout.trim().split('\n').at(-1) ?? '';
  if (child.status !== 0 || !last.startsWith('{'))
    return { peakMiB: Number.NaN, seconds: Number.NaN, exitCode: child.status ?? 1, stderr: child.stderr.slice(-500) };
  return JSON.parse(last) as ProbeResult;
}

const backends = (process.argv[2] ?? 'tiny,onnx-node,onnx-web,webgpu').split(',');
const lengths = (process.argv[3] ?? '100,400').split(',').map(Number);
console.log(describeMachine());
const work = await mkdtemp(join(tmpdir(), 'reward-lens-stream-memory-'));
try {
  const folder = join(work, 'model');
  await writeBenchModel(folder);
  const items = JSON.parse(await readFile(sharedDataPath('processbench/gsm8k.json'), 'utf8')) as { problem: string; steps: string[] }[];
  const files = new Map<number, string>();
  for (const length of lengths) {
    const lines = Array.from({ length }, (_, index) =>
      JSON.stringify({ problem: items[index % items.length]!.problem, steps: items[index % items.length]!.steps }),
    );
    files.set(length, join(work, `records-${length}.jsonl`));
    await writeFile(files.get(length)!, `${lines.join('\n')}\n`);
  }
  console.log(
    `model: stories260K's shape (hidden 64, 5 layers, 8/4 heads), value head, random weights, 4,096 positions; ProcessBench GSM8K records in order (repeating after 400), batch size 8`,
  );
  console.log(`${'backend'.padEnd(11)}${lengths.map((length) => `${length} records`.padStart(22)).join('')}   peak ratio`);
  for (const backend of backends) {
    const runs: ProbeResult[] = [];
    for (const length of lengths) {
      const run = probe(folder, backend, files.get(length)!);
      runs.push(run);
      if (run.exitCode !== 0) break;
    }
    const failed = runs.find((run) => run.exitCode !== 0);
    if (failed) {
      // A backend that cannot run here (a software adapter past its timeouts on a loaded machine, say) is reported, not fatal.
      console.log(`${backend.padEnd(11)}failed: ${failed.stderr.trim().split('\n').join(' ')}`);
      continue;
    }
    const cells = runs.map((run) => `${run.peakMiB.toFixed(0)} MiB ${run.seconds.toFixed(0).padStart(4)} s`.padStart(22)).join('');
    console.log(`${backend.padEnd(11)}${cells}   ${(runs.at(-1)!.peakMiB / runs[0]!.peakMiB).toFixed(2)}×`);
  }
} finally {
  await rm(work, { recursive: true, force: true });
}
