// Run by model-folder-fuzz.test.ts in a child process (its own heap limit and a watchdog): loads
// corrupted copies of a valid model folder and classifies each attempt.
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { memoryUsage } from 'node:process';
import '@reward-lens/backend-tiny/register';
import { ProcessRM, RewardLensError } from '@reward-lens/core';
import { createSeededRandom } from '@reward-lens/spec';
import { corruptFolder } from './corrupt-folder.js';

const [source, seedText, attemptsText] = process.argv.slice(2);
const seed = Number(seedText);
const attempts = Number(attemptsText);
const files = new Map<string, Uint8Array>();
for (const name of await readdir(source!)) files.set(name, new Uint8Array(await readFile(join(source!, name))));
// spec's integer-only generator: the same seed gives the same corruptions on every machine.
const next = createSeededRandom(seed);
const root = await mkdtemp(join(tmpdir(), 'reward-lens-fuzz-'));
let peakRss = memoryUsage.rss();
const sampler = setInterval(() => {
  peakRss = Math.max(peakRss, memoryUsage.rss());
}, 10);
const outcomes: { attempt: number; corruption: unknown; outcome: string; detail: string; ms: number }[] = [];
try {
  for (let attempt = 0; attempt < attempts; attempt++) {
    const { files: corrupted, corruption } = corruptFolder(files, next);
    const folder = join(root, `attempt-${attempt}`);
    await mkdir(folder);
    for (const [name, bytes] of corrupted) await writeFile(join(folder, name), bytes);
    // The parent's watchdog kills this process if an attempt hangs; it reads the last "attempt" line.
    process.stdout.write(`${JSON.stringify({ starting: attempt, corruption })}\n`);
    const started = performance.now();
    let outcome: string;
    let detail = '';
    try {
      const prm = await ProcessRM.fromPretrained(folder, { backend: 'tiny' });
      const scores = await prm.stepScores([['What is 2 + 3?', '2 + 3 = 5.\nThe answer is 5.']]);
      const curve = scores.value.curves[0]!;
      outcome = curve.length === 2 && curve.every((value) => Number.isFinite(value)) ? 'scored' : 'bad-result';
      detail = Array.from(curve).join(', ');
      await prm.dispose();
    } catch (error) {
      outcome = RewardLensError.isInstance(error) ? 'typed-error' : 'untyped-error';
      detail = RewardLensError.isInstance(error) ? `${error.code}: ${error.message}` : String((error as Error)?.stack ?? error);
    }
    outcomes.push({ attempt, corruption, outcome, detail: detail.slice(0, 300), ms: Math.round(performance.now() - started) });
    await rm(folder, { recursive: true, force: true });
  }
} finally {
  clearInterval(sampler);
  await rm(root, { recursive: true, force: true });
}
process.stdout.write(`${JSON.stringify({ done: true, outcomes, peakRssMb: Math.round(peakRss / 2 ** 20) })}\n`);
