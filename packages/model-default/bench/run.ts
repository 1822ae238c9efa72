/**
 * `pnpm --filter @reward-lens/model-default bench`: the default PRM scoring 1,000 organism records
 * (`prm.stepScores`, tokenization included) on 1, 2, 4, ... threads, side by side, and its
 * resident memory on 1, 2 and 4 threads, each in a process of its own (run against source).
 */
import { spawnSync } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import '@reward-lens/backend-tiny/register';
import { ProcessRM } from '@reward-lens/core';
import { describeMachine, median, secondsAsync, threadCounts, useBundledTinyWorker } from '@reward-lens/bench-harness';
import { createOrganism } from '@reward-lens/organism';
import { defaultModelFolder, loadDefaultPrm } from '../src/index.js';

await useBundledTinyWorker();
console.log(describeMachine(`V8 ${process.versions.v8}`, `${process.platform}/${process.arch}`, `${availableParallelism()} threads available`));
const items = createOrganism({ seed: 1002 }).items(1000);
const inputs = items.map((item) => ({ problem: item.problem, steps: [...item.steps] }));
const counts = threadCounts();
const rounds = 5;

/**
 * stepScores over the records on every thread count, in alternating rounds. `recipe` reads the
 * weights another way: `trl-token-classification` (the classifier alone) leaves out the
 * likelihood bound, whose log-softmax over the vocabulary runs on the calling thread.
 */
async function compareThreads(label: string, recipe?: string): Promise<void> {
  const load = (threads: number) =>
    recipe === undefined ? loadDefaultPrm({ threads }) : ProcessRM.fromPretrained(defaultModelFolder, { threads, recipe, backend: 'tiny' });
  const prms = new Map(await Promise.all(counts.map(async (threads) => [threads, await load(threads)] as const)));
  const tokens = inputs.reduce((sum, input) => sum + prms.get(1)!.tokenize(input).inputIds.length, 0);
  for (const prm of prms.values()) await prm.stepScores(inputs.slice(0, 64));
  const times = new Map<number, number[]>(counts.map((threads) => [threads, []]));
  for (let round = 0; round < rounds; round++) {
    for (const threads of counts) times.get(threads)!.push(await secondsAsync(() => prms.get(threads)!.stepScores(inputs)));
  }
  console.log(
    `\n${label}, stepScores over 1,000 organism records (${tokens.toLocaleString('en-US')} tokens, batches of 8; median of ${rounds} alternating rounds):`,
  );
  for (const threads of counts) {
    const seconds = median(times.get(threads)!);
    const ratio = median(times.get(1)!.map((time, round) => time / times.get(threads)![round]!));
    console.log(
      `  ${String(threads).padStart(2)} thread${threads === 1 ? ' ' : 's'} ${seconds.toFixed(2).padStart(6)} s  ${(1000 / seconds).toFixed(0).padStart(5)} records/s  ${(tokens / seconds).toFixed(0).padStart(6)} tokens/s  ${ratio.toFixed(2)}× one thread`,
    );
  }
  for (const prm of prms.values()) await prm.dispose();
}

await compareThreads('the default PRM as shipped (trl-likelihood)');
await compareThreads('the same weights read as the classifier alone (trl-token-classification)', 'trl-token-classification');

const probe = fileURLToPath(new URL('./memory-probe.ts', import.meta.url));
console.log('\nresident memory of a process that loaded the default PRM and scored 1,000 records:');
for (const threads of [1, 2, 4]) {
  const result = spawnSync(process.execPath, [...process.execArgv, probe, String(threads)], { encoding: 'utf8', env: process.env });
  if (result.status !== 0) throw new Error(`the memory probe failed: ${result.stderr}`);
  const { afterLoad, afterScoring } = JSON.parse(result.stdout.trim().split('\n').at(-1)!) as Record<string, number>;
  console.log(
    `  ${threads} thread${threads === 1 ? ' ' : 's'}  after load ${(afterLoad! / 2 ** 20).toFixed(0)} MB, after scoring ${(afterScoring! / 2 ** 20).toFixed(0)} MB`,
  );
}
