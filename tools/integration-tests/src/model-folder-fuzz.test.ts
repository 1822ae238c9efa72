import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeRandomClassifierFolder } from './fuzz/valid-folder.js';

const worker = fileURLToPath(new URL('./fuzz/fuzz-worker.ts', import.meta.url));
const attemptsPerRun = 60;
const hangMs = 30_000;
const heapLimitMb = 1024;

let source: string;
beforeAll(async () => {
  source = await mkdtemp(join(tmpdir(), 'reward-lens-fuzz-source-'));
  await writeRandomClassifierFolder(source);
});
afterAll(() => rm(source, { recursive: true, force: true }));

interface Outcome {
  attempt: number;
  corruption: unknown;
  outcome: string;
  detail: string;
  ms: number;
}

/** Runs the worker with a heap limit; kills it when an attempt runs past `hangMs`, reporting the attempt that hung. */
function runWorker(seed: number): Promise<{ outcomes: Outcome[]; peakRssMb: number; hung?: unknown; stderr: string; code: number | null }> {
  return new Promise((resolve) => {
    const child = spawn(
      process.execPath,
      [`--max-old-space-size=${heapLimitMb}`, '--conditions=@reward-lens/source', '--import', 'tsx', worker, source, String(seed), String(attemptsPerRun)],
      {
        env: { ...process.env, NODE_OPTIONS: '' },
      },
    );
    let stdout = '';
    let stderr = '';
    let scanned = 0;
    let lastStart: unknown;
    let timer = setTimeout(() => child.kill('SIGKILL'), hangMs);
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk;
      const complete = stdout.lastIndexOf('\n');
      for (const line of stdout.slice(scanned, complete + 1).split('\n')) {
        if (!line.startsWith('{"starting"')) continue;
        lastStart = JSON.parse(line);
        clearTimeout(timer);
        timer = setTimeout(() => child.kill('SIGKILL'), hangMs);
      }
      scanned = complete + 1;
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk;
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      const doneLine = stdout.split('\n').find((line) => line.startsWith('{"done"'));
      const done = doneLine ? (JSON.parse(doneLine) as { outcomes: Outcome[]; peakRssMb: number }) : undefined;
      resolve({
        outcomes: done?.outcomes ?? [],
        peakRssMb: done?.peakRssMb ?? Number.NaN,
        ...(done ? {} : { hung: lastStart ?? 'the worker exited before its first attempt' }),
        stderr,
        code,
      });
    });
  });
}

describe('fuzzing model folders: every corrupted folder ends in a typed error or a correct result, in bounded time and memory', () => {
  for (const seed of [1, 2]) {
    it(`seed ${seed}: ${attemptsPerRun} corruptions`, { timeout: 600_000 }, async () => {
      const run = await runWorker(seed);
      expect(run.hung, `an attempt hung or the worker crashed (exit ${run.code}): ${JSON.stringify(run.hung)}\n${run.stderr.slice(-2000)}`).toBeUndefined();
      const untyped = run.outcomes.filter((outcome) => outcome.outcome !== 'typed-error' && outcome.outcome !== 'scored');
      expect(untyped, JSON.stringify(untyped, null, 2)).toEqual([]);
      expect(run.outcomes).toHaveLength(attemptsPerRun);
      // Both kinds occur: corruptions the loader must refuse, and harmless ones it must still score.
      expect(run.outcomes.some((outcome) => outcome.outcome === 'typed-error')).toBe(true);
      expect(run.peakRssMb).toBeLessThan(heapLimitMb + 512);
    });
  }
});
