/**
 * One measurement of `thread-memory.ts`, in a process of its own: the 42M model on `--threads n`,
 * its resident memory after creating the backend and after a forward pass of 8 × 256 tokens
 * (worker threads included: they are in this process). Prints one JSON line.
 */
import { parseArgs } from 'node:util';
import { benchDecoderConfig42M } from '@reward-lens/bench-harness';
import { createRandomDecoder } from '@reward-lens/spec';
import { createTinyBackend } from '../src/index.js';

const { values } = parseArgs({ options: { threads: { type: 'string' } } });
const threads = Number(values.threads);
let model: ReturnType<typeof createRandomDecoder> | undefined = createRandomDecoder({ seed: 1, config: benchDecoderConfig42M });
const parameters = [...model.tensors.values()].reduce((sum, tensor) => sum + tensor.length, 0);
const backend = createTinyBackend(model, { threads });
// The backend holds its own copy (in shared WebAssembly memory); the caller's arrays are dropped.
model = undefined;
(globalThis as { gc?: () => void }).gc?.();
const afterLoad = process.memoryUsage().rss;
const rows = 8;
const length = 256;
await backend.doForward({
  batchSize: rows,
  sequenceLength: length,
  inputIds: Int32Array.from({ length: rows * length }, (_, index) => (index * 7919) % benchDecoderConfig42M.vocabSize),
  attentionMask: new Uint8Array(rows * length).fill(1),
  reads: [{ kind: 'head', head: 'value', positions: Array.from({ length: rows }, () => [length - 1]) }],
});
const afterForward = process.memoryUsage().rss;
console.log(JSON.stringify({ threads, parameters, afterLoad, afterForward }));
await backend.dispose();
