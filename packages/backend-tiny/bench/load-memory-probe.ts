/**
 * One measurement of `load-memory.ts`, in a process of its own: a model folder loaded on one
 * thread, `arena` as `ProcessRM.fromPretrained` loads it (the tensors read into a weight arena
 * that the backend runs where it lies), `copy` as it loaded before (plain arrays, copied into
 * the backend's memory), or `bf16` / `q8` / `q4` (each matrix rounded or quantized as it is read, into the arena). Prints one JSON line: peak and settled resident memory, in bytes.
 */
import '../src/register.js';
import { ProcessRM } from '@reward-lens/core';
import { loadDecoderFolder } from '@reward-lens/core/node';
import { parseArgs } from 'node:util';
import { sampleRss } from '@reward-lens/bench-harness';
import { createTinyBackendAsync } from '../src/index.js';

const { values } = parseArgs({ options: { folder: { type: 'string' }, mode: { type: 'string' } } });
const folder = values.folder!;
const gc = () => (globalThis as { gc?: () => void }).gc?.();
gc();
const before = process.memoryUsage().rss;
// The peak while loading, sampled every millisecond by a thread of its own (it samples through the
// main thread's synchronous copies); the process's maxRSS would include module loading's own peak.
const sampler = sampleRss(1);
// Settled once its thread has started and sampled a while: its own memory is then in the baseline.
await new Promise((resolve) => setTimeout(resolve, 300));
const samplerBaseline = sampler.peak();
const started = performance.now();
let dispose: () => Promise<void>;
if (values.mode === 'arena' || values.mode === 'bf16' || values.mode === 'q8' || values.mode === 'q4') {
  const dtype = values.mode === 'arena' ? {} : { dtype: values.mode as 'bf16' | 'q8' | 'q4' };
  const prm = await ProcessRM.fromPretrained(folder, { backend: 'tiny', threads: 1, recipe: 'trl-token-classification', ...dtype });
  dispose = () => prm.dispose();
} else {
  let loaded: Awaited<ReturnType<typeof loadDecoderFolder>> | undefined = await loadDecoderFolder(folder, {
    heads: [{ name: 'classifier', kind: 'token-classification', numLabels: 2, weight: 'score.weight', bias: 'score.bias' }],
  });
  const backend = await createTinyBackendAsync(loaded.model, { threads: 1 });
  loaded = undefined;
  dispose = () => backend.dispose();
}
const seconds = (performance.now() - started) / 1000;
await new Promise((resolve) => setTimeout(resolve, 20));
const peak = sampler.peak();
await sampler.stop();
gc();
await new Promise((resolve) => setTimeout(resolve, 50));
gc();
const settled = process.memoryUsage().rss;
// The sampler thread's own memory is in every sample: measured from its first samples.
console.log(JSON.stringify({ before: samplerBaseline, peak, settled: settled - before + samplerBaseline, seconds }));
await dispose();
