/**
 * One run of the 7B bench in a process of its own: the folder loaded as `ProcessRM.fromPretrained`
 * loads it for backend-tiny (each matrix made `--dtype` as it is read, into a weight arena), then
 * one forward pass of `--tokens` token ids reading the PRM head at four step ends. Prints one JSON
 * line: peak and settled resident memory (bytes), load and forward seconds, the head's logits.
 */
import { parseArgs } from 'node:util';
import { sampleRss } from '@reward-lens/bench-harness';
import { loadDecoderFolder } from '@reward-lens/core/node';
import type { WeightDtypeV1 } from '@reward-lens/spec';
import { createWeightArena } from '@reward-lens/spec/internal';
import { createTinyBackendAsync } from '../../src/index.js';
import { qwen7bConfig } from './qwen-7b-folder.js';
import { benchTokens } from './bench-tokens.js';

const { values } = parseArgs({ options: { folder: { type: 'string' }, dtype: { type: 'string' }, threads: { type: 'string' }, tokens: { type: 'string' } } });
const dtype = values.dtype as WeightDtypeV1;
const { ids, positions } = benchTokens(Number(values.tokens));
const sampler = sampleRss(2);
const before = process.memoryUsage().rss;
const started = performance.now();
const arena = createWeightArena();
const loaded = await loadDecoderFolder(values.folder!, {
  heads: qwen7bConfig.heads,
  dtype,
  ...(arena ? { allocate: (count: number) => arena.allocate(count), allocateBytes: (bytes: number) => arena.allocateBytes(bytes) } : {}),
});
const backend = await createTinyBackendAsync(loaded.model, { threads: Number(values.threads) });
const loadSeconds = (performance.now() - started) / 1000;
const afterLoad = process.memoryUsage().rss;
const forwardStarted = performance.now();
const result = await backend.doForward({
  batchSize: 1,
  sequenceLength: ids.length,
  inputIds: Int32Array.from(ids),
  attentionMask: new Uint8Array(ids.length).fill(1),
  reads: [{ kind: 'head', head: 'classifier', positions: [positions] }],
});
const forwardSeconds = (performance.now() - forwardStarted) / 1000;
await sampler.stop();
console.log(
  JSON.stringify({
    dtype,
    description: backend.info.description,
    before,
    peak: sampler.peak(),
    afterLoad,
    loadSeconds,
    forwardSeconds,
    logits: [...result.reads[0]!.values[0]!],
  }),
);
await backend.dispose();
