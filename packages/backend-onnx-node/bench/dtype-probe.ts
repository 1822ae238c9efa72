/**
 * One measurement of `dtype-memory.ts`, in a process of its own: an exported graph file loaded on
 * onnx-node (one intra-op thread), then a forward of 8 × 256 tokens timed twice. Prints one JSON
 * line: resident memory before and after loading (bytes), the forward seconds, the value head read.
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { benchDecoderConfig42M } from '@reward-lens/bench-harness';
import { createOnnxNodeBackend } from '../src/index.js';

const { values } = parseArgs({ options: { graph: { type: 'string' } } });
const rss = () => Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync('/proc/self/status', 'utf8'))?.[1]) * 1024;
const before = rss();
const backend = await createOnnxNodeBackend(values.graph!, { config: benchDecoderConfig42M, intraOpThreads: 1 });
const afterLoad = rss();
const rows = 8;
const length = 256;
const request = {
  batchSize: rows,
  sequenceLength: length,
  inputIds: Int32Array.from({ length: rows * length }, (_, index) => (index * 7919) % benchDecoderConfig42M.vocabSize),
  attentionMask: new Uint8Array(rows * length).fill(1),
  reads: [{ kind: 'head' as const, head: 'value', positions: Array.from({ length: rows }, () => [length - 1]) }],
};
await backend.doForward({
  ...request,
  batchSize: 1,
  inputIds: request.inputIds.subarray(0, length),
  attentionMask: request.attentionMask.subarray(0, length),
  reads: [{ kind: 'head', head: 'value', positions: [[length - 1]] }],
});
const seconds: number[] = [];
let read: number[] = [];
for (let run = 0; run < 2; run++) {
  const started = performance.now();
  const result = await backend.doForward(request);
  seconds.push((performance.now() - started) / 1000);
  read = result.reads[0]!.values.map((row) => row[0]!);
}
console.log(JSON.stringify({ before, afterLoad, seconds: Math.min(...seconds), read }));
await backend.dispose();
