import { parseArgs } from 'node:util';
import type { BackendV1, WeightDtypeV1 } from '@reward-lens/core';
import { sampleRss } from './rss-sampler.js';

/** A probe's command line: `--folder`, `--dtype`, `--threads`, `--tokens`. */
export interface ProbeArguments {
  folder: string;
  dtype: WeightDtypeV1;
  threads: number;
  tokens: number;
}

/** The 7B bench's input: `count` token ids below Qwen2's 151,643 text tokens, and four step ends (the last token among them). */
export function benchTokens(count: number): { ids: number[]; positions: number[] } {
  const ids = Array.from({ length: count }, (_, index) => (index * 7919 + 11) % 151643);
  const positions = [1, 2, 3, 4].map((quarter) => Math.floor((quarter * count) / 4) - 1);
  return { ids, positions };
}

/**
 * One run of a real-size bench in a process of its own, from its command line (`ProbeArguments`):
 * `load` (timed, resident memory sampled every 2 ms throughout), then one forward pass of
 * `--tokens` bench tokens reading the PRM head `head` at the four step ends. Prints one JSON
 * line: peak and settled resident memory (bytes), load and forward seconds, the head's values;
 * then disposes of the backend.
 */
export async function probeRealSize(head: string, load: (args: ProbeArguments) => Promise<BackendV1>): Promise<void> {
  const { values } = parseArgs({ options: { folder: { type: 'string' }, dtype: { type: 'string' }, threads: { type: 'string' }, tokens: { type: 'string' } } });
  const args: ProbeArguments = { folder: values.folder!, dtype: values.dtype as WeightDtypeV1, threads: Number(values.threads), tokens: Number(values.tokens) };
  const options = { dtype: args.dtype, head };
  const { ids, positions } = benchTokens(args.tokens);
  const sampler = sampleRss(2);
  const before = process.memoryUsage().rss;
  const started = performance.now();
  const backend = await load(args);
  const loadSeconds = (performance.now() - started) / 1000;
  const afterLoad = process.memoryUsage().rss;
  const forwardStarted = performance.now();
  const result = await backend.doForward({
    batchSize: 1,
    sequenceLength: ids.length,
    inputIds: Int32Array.from(ids),
    attentionMask: new Uint8Array(ids.length).fill(1),
    reads: [{ kind: 'head', head: options.head, positions: [positions] }],
  });
  const forwardSeconds = (performance.now() - forwardStarted) / 1000;
  await sampler.stop();
  const logits = [...result.reads[0]!.values[0]!];
  console.log(
    JSON.stringify({
      dtype: options.dtype,
      description: backend.info.description,
      before,
      peak: sampler.peak(),
      afterLoad,
      loadSeconds,
      forwardSeconds,
      logits,
    }),
  );
  await backend.dispose();
}
