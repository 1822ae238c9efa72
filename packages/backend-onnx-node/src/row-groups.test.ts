import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { createRandomDecoder, type ForwardRequestV1, type ForwardResultV1 } from '@reward-lens/spec';
import { exportDecoderToOnnx } from '@reward-lens/onnx-export';
import { expectClose } from '@reward-lens/core/testing';
import { afterAll, describe, expect, it } from 'vitest';
import { createOnnxNodeBackend } from './index.js';
import { batchOf, idsOf } from '../test/support/requests.js';

const model = createRandomDecoder({ seed: 31 });
const graph = exportDecoderToOnnx(model, { withPast: true, hiddenStates: true, readPositions: true });
const whole = await createOnnxNodeBackend(graph, { decoder: model, intraOpThreads: 1 });
// Every row is over a 1-byte limit: each runs alone, in its own group.
const grouped = await createOnnxNodeBackend(graph, { decoder: model, intraOpThreads: 1, maxRunBytes: 1 });
afterAll(async () => {
  await whole.dispose();
  await grouped.dispose();
});

const rows = [{ ids: idsOf(40, 1) }, { ids: idsOf(3, 2), leftPadding: 37 }, { ids: idsOf(25, 3) }, { ids: idsOf(9, 4), leftPadding: 20 }];
const everyRead = (positions: number[][]) => [
  { kind: 'head' as const, head: 'value', positions },
  { kind: 'head' as const, head: 'lm', positions: positions.map((row) => row.slice(-2)), columns: [5, 300] },
  { kind: 'head' as const, head: 'classifier', positions: positions.map((row) => row.slice(0, 1)) },
  { kind: 'hidden' as const, layer: 1, positions: positions.map((row) => row.slice(-1)) },
  { kind: 'head' as const, head: 'value', positions: positions.map((row) => row.slice(-1)), layer: 1 },
];

/** onnxruntime's matrix products round differently for different row counts: results agree to float32 rounding, not bit for bit. */
const TOLERANCE = 1e-5;

function expectSameReads(actual: ForwardResultV1, expected: ForwardResultV1, label: string): void {
  expect(actual.reads.map((read) => [read.width, read.values.map((values) => values.length)])).toEqual(
    expected.reads.map((read) => [read.width, read.values.map((values) => values.length)]),
  );
  actual.reads.forEach((read, index) =>
    read.values.forEach((values, row) => expectClose(values, expected.reads[index]!.values[row]!, TOLERANCE, `${label}: read ${index}, row ${row}`)),
  );
}

describe('onnx-node: a batch above maxRunBytes runs in row groups', () => {
  it('gives the reads of one run, row for row, for rows padded either side', async () => {
    const request = batchOf(rows, everyRead);
    expectSameReads(await grouped.doForward(request), await whole.doForward(request), 'grouped vs one run');
  });

  it('hands back each row its own cache, and continuing from the caches gives the same reads', async () => {
    const request = { ...batchOf(rows, everyRead), returnCache: true };
    const [one, groups] = [await whole.doForward(request), await grouped.doForward(request)];
    expectSameReads(groups, one, 'grouped vs one run, with caches');
    expect(groups.caches!.map((cache) => cache.length)).toEqual(rows.map((row) => row.ids.length));
    const next = (caches: ForwardRequestV1['past']) => ({
      ...batchOf(
        rows.map((_, index) => ({ ids: idsOf(2 + index, 9 + index) })),
        (positions) => ({ kind: 'head' as const, head: 'value', positions }),
      ),
      past: caches,
    });
    expectSameReads(await grouped.doForward(next(groups.caches)), await whole.doForward(next(one.caches)), 'continued from the caches');
    for (const cache of [...one.caches!, ...groups.caches!]) cache.release();
  });

  it('runs one forward of 8 rows of 2,000 tokens in bounded memory (child process, peak RSS): 1.7 GB before groups', () => {
    const script = fileURLToPath(new URL('../test/support/run-memory-child.ts', import.meta.url));
    const child = spawnSync(process.execPath, ['--conditions=@reward-lens/source', '--import', 'tsx', script], {
      encoding: 'utf8',
      env: { ...process.env, NODE_OPTIONS: '' },
      timeout: 180_000,
    });
    expect(child.status, child.stderr).toBe(0);
    const report = JSON.parse(child.stdout.trim().split('\n').at(-1)!) as { afterLoadMiB: number; peakMiB: number };
    // The default limit (256 MiB estimated per run) keeps the run a few hundred MiB above the loaded model.
    expect(report.peakMiB - report.afterLoadMiB).toBeLessThan(600);
  }, 200_000);
});
