/**
 * `pnpm --filter @reward-lens/backend-tiny bench:7b`: a Qwen2.5-Math-PRM-7B-shaped PRM (7.08B
 * parameters, random BF16 weights in 4 shards, written once to --folder, 14.2 GB) on backend-tiny
 * at each --dtypes (each in a process of its own, loaded as fromPretrained loads it), against a
 * PyTorch forward of the same folder (Debian's python3-torch, installed when missing): peak
 * resident memory, load time, tokens/s, and the head's difference from PyTorch's. Not in CI.
 * `--backend onnx-node` runs backend-onnx-node's probe instead (the folder handed to it unread, as
 * `fromPretrained` does when onnx-node is named; this repository's checkout beside this package).
 */
import { spawnSync } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { benchTokens, debianPython, describeMachine, ensureTorch, torchEnvironment, useBundledTinyWorker } from '@reward-lens/bench-harness';

import { writeQwen7bFolder } from './qwen-7b-folder.js';

const { values } = parseArgs({
  options: {
    folder: { type: 'string', default: '/tmp/reward-lens-qwen-7b' },
    dtypes: { type: 'string', default: 'q4,q8,bf16' },
    threads: { type: 'string', default: String(availableParallelism()) },
    tokens: { type: 'string', default: '64' },
    torch: { type: 'boolean', default: true },
    backend: { type: 'string', default: 'tiny' },
  },
  allowNegative: true,
});
const folder = values.folder!;
const threads = Number(values.threads);
const tokens = Number(values.tokens);
const goals: Record<string, number> = { q4: 7, q8: 11, bf16: 17 };
const GB = 1e9;

await useBundledTinyWorker();
console.log(describeMachine(`${availableParallelism()} threads available`));
let started = performance.now();
await writeQwen7bFolder(folder);
console.log(
  `folder: ${folder} (written or found in ${((performance.now() - started) / 1000).toFixed(0)} s), ${tokens} tokens, ${threads} threads, backend ${values.backend}`,
);

interface Run {
  dtype: string;
  description?: string;
  peak: number;
  loadSeconds: number;
  forwardSeconds: number;
  logits: number[];
}
const runs: Run[] = [];
const probes: Record<string, string> = {
  tiny: './tiny-probe.ts',
  // A bench of this repository, not an import: backend-onnx-node depends on backend-tiny, not the other way.
  'onnx-node': '../../../backend-onnx-node/bench/real-size-probe.ts',
};
if (!(values.backend! in probes)) throw new Error(`--backend is one of ${Object.keys(probes).join(', ')}, not ${values.backend}`);
const probe = fileURLToPath(new URL(probes[values.backend!]!, import.meta.url));
for (const dtype of values.dtypes!.split(',')) {
  const result = spawnSync(
    process.execPath,
    [...process.execArgv, probe, '--folder', folder, '--dtype', dtype, '--threads', String(threads), '--tokens', String(tokens)],
    {
      encoding: 'utf8',
      env: process.env,
      maxBuffer: 1 << 24,
    },
  );
  if (result.status !== 0) {
    console.log(`  ${dtype}: the probe failed (${result.signal ?? result.status}): ${result.stderr.trim().split('\n').slice(-3).join(' | ')}`);
    continue;
  }
  runs.push(JSON.parse(result.stdout.trim().split('\n').at(-1)!) as Run);
}

const unavailable = values.torch ? ensureTorch() : 'not asked for (--no-torch)';
let torch: Run | undefined;
if (unavailable) console.log(`  PyTorch: ${unavailable}`);
else {
  const { ids, positions } = benchTokens(tokens);
  const script = fileURLToPath(new URL('./torch_forward.py', import.meta.url));
  started = performance.now();
  const result = spawnSync(debianPython, [script, JSON.stringify({ folder, ids, positions, threads })], {
    encoding: 'utf8',
    env: torchEnvironment(threads),
    maxBuffer: 1 << 24,
  });
  if (result.status !== 0) console.log(`  PyTorch: failed (${result.signal ?? result.status}): ${result.stderr.trim().split('\n').slice(-3).join(' | ')}`);
  else torch = { dtype: 'torch bf16→f32', ...(JSON.parse(result.stdout.trim().split('\n').at(-1)!) as Omit<Run, 'dtype'>) };
}

const probability = (logits: number[], index: number) => 1 / (1 + Math.exp(logits[2 * index]! - logits[2 * index + 1]!));
const deviation = (run: Run) =>
  torch ? Math.max(...[0, 1, 2, 3].map((index) => Math.abs(probability(run.logits, index) - probability(torch!.logits, index)))).toFixed(4) : '-';
console.log('\n  weights            peak resident   load      forward   tokens/s   max |Δ P(class 1)| vs PyTorch   goal');
for (const run of [...runs, ...(torch ? [torch] : [])]) {
  const goal = goals[run.dtype];
  const verdict = goal === undefined ? '' : run.peak / GB < goal ? `under ${goal} GB` : `OVER ${goal} GB`;
  console.log(
    `  ${run.dtype.padEnd(17)}  ${(run.peak / GB).toFixed(2).padStart(6)} GB     ${run.loadSeconds.toFixed(1).padStart(6)} s  ${run.forwardSeconds.toFixed(1).padStart(6)} s  ${(tokens / run.forwardSeconds).toFixed(2).padStart(7)}    ${run === torch ? '-' : deviation(run)}                            ${verdict}`,
  );
}
for (const run of runs) if (run.description) console.log(`  ${run.dtype}: ${run.description}`);
if (torch)
  console.log(
    `  PyTorch ${(torch as { torch?: string }).torch}: P(class 1) at the step ends ${[0, 1, 2, 3].map((index) => probability(torch!.logits, index).toFixed(4)).join(', ')}`,
  );
