/**
 * `pnpm --filter @reward-lens/serve bench`: a bounded load test of `createRewardServer` on
 * loopback. The server runs in a child process (the seeded tiny PRM on backend-tiny); this
 * process sends POST /v1/score at concurrency 1, 8 and 32 to a server with dynamic batching and
 * to one with batch size 1, checks every answer against the record scored alone, and measures the
 * throughput gain of batching at concurrency 32 side by side (alternating runs, median ratio),
 * next to the same ratio for the model alone (no HTTP), which bounds what batching can give.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { describeMachine, formatRatio, median, secondsAsync, threadCounts, useBundledTinyWorker } from '@reward-lens/bench-harness';
import { loadDefaultPrm } from '@reward-lens/model-default';
import { createOrganism } from '@reward-lens/organism';
import { ProcessRM } from '@reward-lens/core';
import '@reward-lens/backend-tiny/register';
import { batchCounters, quantile, runLoad, type CheckedRecord, type LoadResult } from './load.js';

const requestsPerRun = 384;
const deadlineMs = 60_000;
const pairs = 5;

function records(count: number): { problem: string; solution: string }[] {
  return Array.from({ length: count }, (_, index) => {
    const a = (index * 37) % 91;
    const b = (index * 11) % 17;
    const steps = [`We start from ${a} and add ${b}: ${a} + ${b} = ${a + b}.`, `Then we double it: 2 * ${a + b} = ${2 * (a + b)}.`];
    for (let extra = 0; extra < index % 4; extra++) steps.push(`Check ${extra + 1}: ${2 * (a + b)} / 2 = ${a + b}, as before.`);
    steps.push(`The answer is ${2 * (a + b)}.`);
    return { problem: `Start from ${a}, add ${b}, then double the result. What do you get?`, solution: steps.join('\n') };
  });
}

async function startServer(
  maxBatchSize: number,
  maxWaitMs: number,
  model: 'tiny' | 'default' = 'tiny',
  threads?: number,
): Promise<{ child: ChildProcess; url: string }> {
  const tsx = fileURLToPath(new URL('../node_modules/.bin/tsx', import.meta.url));
  const child = spawn(
    tsx,
    [
      '--conditions=@reward-lens/source',
      fileURLToPath(new URL('./bench-server.ts', import.meta.url)),
      String(maxBatchSize),
      String(maxWaitMs),
      model,
      ...(threads === undefined ? [] : [String(threads)]),
    ],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  const lines = createInterface({ input: child.stdout! });
  for await (const line of lines) return { child, url: (JSON.parse(line) as { url: string }).url };
  throw new Error('the bench server exited before listening');
}

/** One run, with the mean batch size the server formed during it. */
async function measure(url: string, concurrency: number): Promise<LoadResult & { meanBatch: number }> {
  const before = await batchCounters(url);
  const result = await runLoad(url, checked, { concurrency, requests: requestsPerRun, deadlineMs });
  const after = await batchCounters(url);
  return { ...result, meanBatch: (after.jobs - before.jobs) / Math.max(1, after.batches - before.batches) };
}

function row(name: string, result: LoadResult & { meanBatch: number }): string {
  return [
    name.padEnd(14),
    String(result.concurrency).padStart(11),
    String(result.requests).padStart(8),
    (result.requests / result.seconds).toFixed(0).padStart(6),
    quantile(result.latenciesMs, 0.5).toFixed(1).padStart(7),
    quantile(result.latenciesMs, 0.99).toFixed(1).padStart(7),
    result.meanBatch.toFixed(1).padStart(10),
    String(result.lost).padStart(5),
    String(result.mismatched).padStart(10),
  ].join('  ');
}

await useBundledTinyWorker();
const sample = records(96);
const checked: CheckedRecord[] = [];
const alone = await ProcessRM.fromTiny({ seed: 0, batchSize: 1 });
// Every record scored alone (batch size 1): what each answer must equal, bit for bit.
for (const record of sample) {
  const evidence = await alone.stepScores([record]);
  checked.push({ body: JSON.stringify(record), expected: Array.from(evidence.value.curves[0]!) });
}
const meanTokens = sample.reduce((total, record) => total + alone.tokenize(record).inputIds.length, 0) / sample.length;

console.log(describeMachine(`${process.platform}/${process.arch}`, 'server and load generator in separate processes, loopback'));
console.log(`model: the seeded tiny PRM (seed 0) on backend-tiny; ${sample.length} records of 3-6 steps, ${meanTokens.toFixed(0)} tokens on average`);
console.log(`runs: ${requestsPerRun} POST /v1/score per run, one record each; batched server: up to 32 records per batch, no wait`);

const batched = await startServer(32, 0);
const single = await startServer(1, 0);
let failures = 0;
try {
  for (const server of [batched, single]) await runLoad(server.url, checked, { concurrency: 8, requests: 64, deadlineMs });
  console.log(`\n${['server'.padEnd(14), 'concurrency', 'requests', 'req/s', 'p50 ms', 'p99 ms', 'mean batch', 'lost', 'mismatched'].join('  ')}`);
  for (const [name, server] of [
    ['batched', batched],
    ['batch size 1', single],
  ] as const) {
    for (const concurrency of [1, 8, 32]) {
      const result = await measure(server.url, concurrency);
      failures += result.lost + result.mismatched;
      console.log(row(name, result));
    }
  }

  // Batched against batch size 1 at concurrency 32, alternating, under the same machine load.
  const ratios: number[] = [];
  const throughput = { batched: [] as number[], single: [] as number[] };
  for (let pair = 0; pair < pairs; pair++) {
    const a = await runLoad(batched.url, checked, { concurrency: 32, requests: requestsPerRun, deadlineMs });
    const b = await runLoad(single.url, checked, { concurrency: 32, requests: requestsPerRun, deadlineMs });
    failures += a.lost + a.mismatched + b.lost + b.mismatched;
    throughput.batched.push(a.requests / a.seconds);
    throughput.single.push(b.requests / b.seconds);
    ratios.push(a.requests / a.seconds / (b.requests / b.seconds));
  }
  console.log(
    `\nbatching gain at concurrency 32: ${formatRatio(median(ratios))} throughput (median of ${pairs} alternating pairs; ` +
      `${median(throughput.batched).toFixed(0)} vs ${median(throughput.single).toFixed(0)} req/s; goal ≥ 2×)`,
  );
} finally {
  batched.child.kill('SIGTERM');
  single.child.kill('SIGTERM');
}

// The ceiling: the same records through the model alone, 32 per call at batch size 32 vs one call each.
const together = await ProcessRM.fromTiny({ seed: 0, batchSize: 32 });
const batch = sample.slice(0, 32);
const engine: number[] = [];
for (let pair = 0; pair < pairs + 1; pair++) {
  const oneByOne = await secondsAsync(async () => {
    for (const record of batch) await alone.stepScores([record]);
  });
  const inOne = await secondsAsync(() => together.stepScores(batch));
  if (pair > 0) engine.push(oneByOne / inOne);
}
console.log(`the model alone, 32 records in one batch vs one by one: ${formatRatio(median(engine))} (median of ${pairs} pairs after a warm-up; no HTTP)`);
await Promise.all([alone.dispose(), together.dispose()]);

// The server's own cost on N threads: the default PRM served at concurrency 32 against the same
// model scoring the same records in batches of 32 without HTTP, on as many threads, alternately.
const organism = createOrganism({ seed: 1002 }).items(requestsPerRun);
const organismRecords = organism.map((item) => ({ problem: item.problem, steps: [...item.steps] }));
const reference = await loadDefaultPrm({ batchSize: 1, threads: 1 });
const organismChecked: CheckedRecord[] = [];
for (const record of organismRecords) {
  organismChecked.push({ body: JSON.stringify(record), expected: Array.from((await reference.stepScores([record])).value.curves[0]!) });
}
await reference.dispose();
console.log(
  `\nthe default PRM served on N threads at concurrency 32 (${requestsPerRun} organism records, one per request, batches of up to 32) against the model alone on N threads (the same records, 32 per call, no HTTP); ${pairs} alternating pairs:`,
);
for (const threads of threadCounts()) {
  const server = await startServer(32, 0, 'default', threads);
  const model = await loadDefaultPrm({ batchSize: 32, threads });
  try {
    await runLoad(server.url, organismChecked, { concurrency: 32, requests: 64, deadlineMs });
    await model.stepScores(organismRecords.slice(0, 64));
    const served: number[] = [];
    const alone: number[] = [];
    for (let pair = 0; pair < pairs; pair++) {
      const load = await runLoad(server.url, organismChecked, { concurrency: 32, requests: requestsPerRun, deadlineMs });
      failures += load.lost + load.mismatched;
      served.push(load.requests / load.seconds);
      alone.push(requestsPerRun / (await secondsAsync(() => model.stepScores(organismRecords))));
    }
    const ratio = median(served.map((rate, pair) => rate / alone[pair]!));
    console.log(
      `  ${threads} thread${threads === 1 ? ' ' : 's'}: served ${median(served).toFixed(0)} req/s, model alone ${median(alone).toFixed(0)} records/s: ${formatRatio(ratio)} (goal ≥ 0.85×)`,
    );
  } finally {
    server.child.kill('SIGTERM');
    await model.dispose();
  }
}
console.log(failures === 0 ? 'every answer equal to its record scored alone, batch size 1, one thread; none lost' : `${failures} answers lost or mismatched`);
if (failures > 0) process.exitCode = 1;
