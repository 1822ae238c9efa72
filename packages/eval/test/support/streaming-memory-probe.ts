// Run in a child process by streaming-memory.test.ts: writes a ProcessBench JSONL of N items, evaluates
// it through the streaming path with a synthetic scorer, and prints the heap after GC at checkpoints.
import { createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { once } from 'node:events';
import type { Evidence, StepScores } from '@reward-lens/core';
import { evaluateProcessBench } from '../../src/evaluate/evaluate-processbench.js';
import type { StepScorer } from '../../src/evaluate/step-scorer.js';
import { fixedThreshold } from '../../src/processbench/choose-threshold.js';
import { readProcessBenchFile } from '../../src/node/read-processbench-file.js';

const items = Number(process.argv[2] ?? 100_000);
const checkpoints = new Set((process.argv[3] ?? '30000,60000,100000').split(',').map(Number));
const folder = await mkdtemp(join(tmpdir(), 'reward-lens-stream-'));
const path = join(folder, 'split.jsonl');
const out = createWriteStream(path);
for (let index = 0; index < items; index++) {
  const steps = Array.from({ length: 3 + (index % 4) }, (_, step) => `Step ${step + 1}: ${index} plus ${step} is ${index + step}.`);
  const label = index % 3 === 0 ? -1 : index % steps.length;
  const line = `${JSON.stringify({ id: `item-${index}`, generator: 'synthetic', problem: `Problem ${index}: add the numbers.`, steps, final_answer_correct: label === -1, label })}\n`;
  if (!out.write(line)) await once(out, 'drain');
}
out.end();
await once(out, 'finish');

// Deterministic scores from the text, so nothing is kept between calls.
const scorer: StepScorer = {
  async stepScores(inputs) {
    const curves = inputs.map((input) => Float32Array.from(input.steps, (step) => ((step.length * 7919 + step.charCodeAt(step.length - 2)) % 1000) / 1000));
    const value: StepScores = { stepCounts: curves.map((curve) => curve.length), curves, steps: [], meta: [], errors: inputs.map(() => null) };
    return { value, gauge: 'PROBABILITY', trust: 'EXPLORATORY', notes: ['synthetic scorer'] } satisfies Evidence<StepScores>;
  },
};

const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('run with --expose-gc');
const heap: Record<number, number> = {};
const run = await evaluateProcessBench(scorer, await readProcessBenchFile(path), {
  threshold: fixedThreshold(0.5, 'memory probe'),
  aurocExactLimit: 100_000,
  onProgress: ({ items: done }) => {
    if (checkpoints.has(done)) {
      gc();
      heap[done] = process.memoryUsage().heapUsed;
    }
  },
});
await rm(folder, { recursive: true });
process.stdout.write(
  `${JSON.stringify({ heap, items: run.evaluation.items, f1: run.evaluation.metrics.f1, binned: run.evaluation.auroc.binned !== undefined })}\n`,
);
