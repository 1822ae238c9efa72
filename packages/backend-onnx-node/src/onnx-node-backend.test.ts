import { createTinyBackend } from '@reward-lens/backend-tiny';
import { createRandomDecoder, formatCapabilities, type BackendV1, type CacheHandleV1 } from '@reward-lens/spec';
import { expectClose } from '@reward-lens/core/testing';
import { exportDecoderToOnnx } from '@reward-lens/onnx-export';
import { afterAll, describe, expect, it } from 'vitest';
import { createOnnxNodeBackend } from './index.js';
import { batchOf, idsOf, valueAt } from '../test/support/requests.js';

const TOLERANCE = 1e-4;
const model = createRandomDecoder({ seed: 21 });
const graph = exportDecoderToOnnx(model, { withPast: true, hiddenStates: true });
const backend = await createOnnxNodeBackend(graph, { decoder: model, intraOpThreads: 1 });
const reference = createTinyBackend(model);
afterAll(() => backend.dispose());

/** The value head at every token of one unpadded row, from backend-tiny. */
async function referenceValues(ids: readonly number[]): Promise<Float32Array> {
  return (await reference.doForward(batchOf([{ ids }], valueAt))).reads[0]!.values[0]!;
}

describe('capabilities follow the graph', () => {
  const cases: [string, Parameters<typeof exportDecoderToOnnx>[1], boolean, string, boolean][] = [
    ['past + hidden states + weights', { withPast: true, hiddenStates: true }, true, 'SCORES|PREFIX_SCORES|ACTIVATIONS|LINEAR_READOUT|STEP_SCORES', true],
    ['past + hidden states, no weights', { withPast: true, hiddenStates: true }, false, 'SCORES|PREFIX_SCORES|ACTIVATIONS|STEP_SCORES', true],
    ['past, no hidden states', { withPast: true }, true, 'SCORES|PREFIX_SCORES|STEP_SCORES', true],
    ['no past, hidden states', { withPast: false, hiddenStates: true }, false, 'SCORES|PREFIX_SCORES|ACTIVATIONS|STEP_SCORES', false],
    ['hidden states only', { withPast: false, hiddenStates: true, heads: [] }, false, 'ACTIVATIONS', false],
  ];
  for (const [label, exportOptions, withWeights, capabilities, supportsCache] of cases) {
    it(label, async () => {
      const options = withWeights ? { decoder: model, intraOpThreads: 1 } : { config: model.config, intraOpThreads: 1 };
      const subject = await createOnnxNodeBackend(exportDecoderToOnnx(model, exportOptions), options);
      try {
        expect(formatCapabilities(subject.capabilities)).toBe(capabilities);
        expect(subject.supportsCache).toBe(supportsCache);
        expect(subject.precision).toBe('fp32');
        expect(subject.info).toMatchObject({ vocabSize: 512, hiddenSize: 64, numLayers: 2, maxPositions: 1024 });
      } finally {
        await subject.dispose();
      }
    });
  }
});

describe('reads', () => {
  it('copies only the requested positions and columns, at the last and at inner layers', async () => {
    const ids = idsOf(9, 1);
    const positions = [[8, 2, 5]];
    const columns = [7, 3, 500];
    const reads = [
      { kind: 'head' as const, head: 'lm', positions, columns },
      { kind: 'head' as const, head: 'lm', positions, columns, layer: 1 },
      { kind: 'head' as const, head: 'classifier', positions, layer: 0 },
      { kind: 'hidden' as const, layer: 2, positions },
    ];
    const ours = await backend.doForward({ ...batchOf([{ ids }], () => []), reads });
    const theirs = await reference.doForward({ ...batchOf([{ ids }], () => []), reads });
    expect(ours.reads.map((read) => read.width)).toEqual([3, 3, 2, 64]);
    ours.reads.forEach((read, index) => expectClose(read.values[0]!, theirs.reads[index]!.values[0]!, TOLERANCE, `read ${index}`));
  });

  it('moves tokens to the configured padding side with the same results', async () => {
    const rows = [{ ids: idsOf(3, 2), leftPadding: 4 }, { ids: idsOf(7, 3) }];
    const expected = await Promise.all(rows.map((row) => referenceValues(row.ids)));
    for (const padding of ['left', 'right'] as const) {
      const subject = await createOnnxNodeBackend(graph, { config: model.config, padding, intraOpThreads: 1 });
      try {
        const { reads } = await subject.doForward(batchOf(rows, valueAt));
        reads[0]!.values.forEach((values, row) => expectClose(values, expected[row]!, TOLERANCE, `row ${row}, ${padding} padding`));
      } finally {
        await subject.dispose();
      }
    }
  });

  it('returns nothing for a request without reads or cache', async () => {
    expect(await backend.doForward(batchOf([{ ids: [1, 2] }], () => []))).toEqual({ reads: [] });
  });
});

describe('KV cache', () => {
  it('runs rows with pasts of different lengths, and rows without, in one batch', async () => {
    const full = [idsOf(9, 4), idsOf(11, 5), idsOf(7, 6)];
    const cuts = [5, 9, 0];
    const prefixes = await backend.doForward({ ...batchOf([{ ids: full[0]!.slice(0, 5) }, { ids: full[1]!.slice(0, 9) }], valueAt), returnCache: true });
    const [first, second] = prefixes.caches!;
    expect([first!.length, second!.length]).toEqual([5, 9]);
    const rows = full.map((ids, row) => ({ ids: ids.slice(cuts[row]), leftPadding: row === 2 ? 1 : 0 }));
    const continued = await backend.doForward({ ...batchOf(rows, valueAt), past: [first!, second!, null], returnCache: true });
    expect(continued.caches!.map((cache) => cache.length)).toEqual([9, 11, 7]);
    for (let row = 0; row < 3; row++) {
      const expected = (await referenceValues(full[row]!)).subarray(cuts[row]);
      expectClose(continued.reads[0]!.values[row]!, expected, TOLERANCE, `row ${row} after a past of ${cuts[row]}`);
    }
    // The returned caches continue again, including the one built from a padded row.
    const next = [3, 1, 4];
    const again = await backend.doForward({
      ...batchOf(
        next.map((id) => ({ ids: [id] })),
        valueAt,
      ),
      past: continued.caches!,
    });
    for (let row = 0; row < 3; row++) {
      const expected = (await referenceValues([...full[row]!, next[row]!])).subarray(full[row]!.length);
      expectClose(again.reads[0]!.values[row]!, expected, TOLERANCE, `row ${row}, second continuation`);
    }
    for (const cache of [first!, second!, ...continued.caches!]) cache.release();
  });

  it('refuses released handles and handles of another backend before any work', async () => {
    const other: BackendV1 = await createOnnxNodeBackend(graph, { config: model.config, intraOpThreads: 1 });
    try {
      const foreign: CacheHandleV1 = (await other.doForward({ ...batchOf([{ ids: [1, 2, 3] }], valueAt), returnCache: true })).caches![0]!;
      await expect(backend.doForward({ ...batchOf([{ ids: [4] }], valueAt), past: [foreign] })).rejects.toMatchObject({ code: 'BACKEND_CONTRACT' });
      const released = (await backend.doForward({ ...batchOf([{ ids: [1, 2, 3] }], valueAt), returnCache: true })).caches![0]!;
      const fork = released.fork();
      released.release();
      await expect(backend.doForward({ ...batchOf([{ ids: [4] }], valueAt), past: [released] })).rejects.toThrow(/released cache handle/);
      expect(() => released.fork()).toThrow(/released/);
      expect((await backend.doForward({ ...batchOf([{ ids: [4] }], valueAt), past: [fork] })).reads[0]!.values[0]!.length).toBe(1);
    } finally {
      await other.dispose();
    }
  });
});
