import { describe, expect, it } from 'vitest';
import { createWeightArena } from '@reward-lens/spec/internal';
import { createTinyBackend, createTinyBackendAsync } from './create-tiny-backend.js';
import { batchRequest, range } from '../test/support/requests.js';
import { testModel, tokenIds } from '../test/support/test-models.js';

const rows = [tokenIds(40, 61, 1), tokenIds(23, 61, 2)];
const request = batchRequest(rows, (positionsOf) => [
  { kind: 'head', head: 'value', positions: rows.map((row, index) => positionsOf(index, range(row.length))) },
  { kind: 'head', head: 'lm', positions: rows.map((row, index) => positionsOf(index, [row.length - 1])), columns: [3, 9] },
]);
const bitsOf = (values: readonly Float32Array[]) => values.flatMap((array) => [...new Uint32Array(array.buffer, array.byteOffset, array.length)]);

describe('weights past one WebAssembly memory', () => {
  // 8 layers of hidden 128: about 7 MB of float32 weights (1.8 MB as q8), the largest tensor 196 KB.
  const model = testModel(14, { maxPositions: 128, hiddenSize: 128, intermediateSize: 384, numLayers: 8 });
  const total = [...model.tensors.values()].reduce((sum, tensor) => sum + tensor.byteLength, 0);
  // A 2 MiB cap: 1 MiB of it is scratch, so the weights need several memories, q8's too.
  const cap = 2 * 2 ** 20;

  it('the cap is one the float32 weights need several memories under', () => {
    expect(total).toBeGreaterThan(2 * (cap - 2 ** 20));
  });

  for (const dtype of ['fp32', 'q8'] as const) {
    it.each([1, 2])(`${dtype} on %i thread(s): go to further memories, still on the SIMD kernels, with the same bits as in one`, async (threads) => {
      const whole = createTinyBackend(model, { threads, dtype });
      const spread = createTinyBackend(model, { threads, dtype, maximumWasmBytes: cap, sliceTokens: 1 });
      try {
        const memories = Number(/weights in (\d+) WebAssembly memories/.exec(spread.info.description)?.[1] ?? 1);
        expect(memories).toBeGreaterThanOrEqual(dtype === 'fp32' ? 3 : 2);
        expect(spread.info.description).toContain('kernels=wasm-simd');
        expect(spread.info.notes?.some((note) => note.includes('scalar'))).not.toBe(true);
        const expected = await whole.doForward(request);
        const actual = await spread.doForward(request);
        expect(bitsOf(actual.reads.flatMap((read) => read.values))).toEqual(bitsOf(expected.reads.flatMap((read) => read.values)));
      } finally {
        await whole.dispose();
        await spread.dispose();
      }
    });
  }
});

describe('weights in a weight arena over several memories', () => {
  const model = testModel(15, { maxPositions: 128, hiddenSize: 128, intermediateSize: 384, numLayers: 4 });

  it.each([1, 2])('are run where they lie in every memory on %i thread(s): no copy, the same bits as one memory', async (threads) => {
    // 1 MiB of weights per memory: the 3.7 MB model spans four.
    const arena = createWeightArena({ roomBytes: 2 ** 20 })!;
    const tensors = new Map<string, Float32Array>();
    for (const [name, tensor] of model.tensors) {
      const view = arena.allocate(tensor.length)!;
      view.set(tensor);
      tensors.set(name, view);
    }
    expect(arena.memories.length).toBeGreaterThanOrEqual(3);
    const sizes = arena.memories.map((memory) => memory.buffer.byteLength);
    const whole = createTinyBackend(model, { threads });
    const adopted = await createTinyBackendAsync({ config: model.config, tensors }, { threads, sliceTokens: 1 });
    try {
      expect(adopted.info.description).toContain(`weights in ${arena.memories.length} WebAssembly memories`);
      const expected = await whole.doForward(request);
      expect(bitsOf((await adopted.doForward(request)).reads.flatMap((read) => read.values))).toEqual(bitsOf(expected.reads.flatMap((read) => read.values)));
      // Run where they lie: a change to a tensor in the last memory shows; no memory grew by more than scratch.
      tensors.get('model.layers.3.mlp.down_proj.weight')!.fill(0);
      expect(bitsOf((await adopted.doForward(request)).reads.flatMap((read) => read.values))).not.toEqual(
        bitsOf(expected.reads.flatMap((read) => read.values)),
      );
      arena.memories.forEach((memory, index) => expect(memory.buffer.byteLength - sizes[index]!).toBeLessThan(2 ** 20));
    } finally {
      await whole.dispose();
      await adopted.dispose();
    }
  });
});
