/**
 * Run in a child process by `run-memory.test.ts`, to measure peak memory (VmHWM, Linux):
 * `run-memory-child.ts [maxRunBytes]` runs one forward of 8 rows of 2,000 tokens on a small model
 * (hidden 32, 4 heads) and prints the peak after loading and after the forward, in MiB.
 */
import { readFileSync } from 'node:fs';
import { createRandomDecoder, defineDecoderConfig } from '@reward-lens/spec';
import { exportDecoderToOnnx } from '@reward-lens/onnx-export';
import { smallLlamaFields } from '@reward-lens/test-data';
import { createOnnxNodeBackend } from '../../src/index.js';
import { batchOf, idsOf } from './requests.js';

const maxRunBytes = process.argv[2] === undefined ? undefined : Number(process.argv[2]);
const config = defineDecoderConfig({
  ...smallLlamaFields,
  vocabSize: 512,
  maxPositions: 4096,
  heads: [{ name: 'value', kind: 'value', weight: 'score.weight' }],
});
const model = createRandomDecoder({ seed: 7, config });
const backend = await createOnnxNodeBackend(exportDecoderToOnnx(model, { withPast: true, readPositions: true }), {
  decoder: model,
  intraOpThreads: 1,
  ...(maxRunBytes !== undefined ? { maxRunBytes } : {}),
});
const peakMiB = () => Number(/VmHWM:\s+(\d+) kB/.exec(readFileSync('/proc/self/status', 'utf8'))?.[1] ?? Number.NaN) / 1024;
const lastOfEachRow = (positions: number[][]) => ({ kind: 'head' as const, head: 'value', positions: positions.map((row) => [row.at(-1)!]) });
const batch = (lengths: readonly number[], seed: number) =>
  batchOf(
    lengths.map((length, row) => ({ ids: idsOf(length, seed + row) })),
    lastOfEachRow,
  );

await backend.doForward(batch([4], 0));
const afterLoadMiB = peakMiB();
await backend.doForward(
  batch(
    Array.from({ length: 8 }, () => 2000),
    1,
  ),
);
const report = { afterLoadMiB, peakMiB: peakMiB() };
await backend.dispose();
console.log(JSON.stringify(report));
