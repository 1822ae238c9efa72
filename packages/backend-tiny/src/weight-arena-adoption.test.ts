import { createWeightArena } from '@reward-lens/spec/internal';
import { type DecoderModel, resolveBackend } from '@reward-lens/spec';
import './register.js';
import { describe, expect, it } from 'vitest';
import { createTinyBackend, createTinyBackendAsync } from './create-tiny-backend.js';
import { batchRequest, range } from '../test/support/requests.js';
import { testModel, tokenIds } from '../test/support/test-models.js';

/** The model with every tensor copied into a new weight arena, as the loader reads a folder into one; and the arena's size after. */
function inArena(model: DecoderModel) {
  const arena = createWeightArena()!;
  const tensors = new Map<string, Float32Array>();
  for (const [name, tensor] of model.tensors) {
    const view = arena.allocate(tensor.length)!;
    view.set(tensor);
    tensors.set(name, view);
  }
  return { model: { config: model.config, tensors }, arena, bytesAfterLoad: arena.memory.buffer.byteLength };
}

const rows = [tokenIds(40, 61, 1), tokenIds(23, 61, 2)];
const request = batchRequest(rows, (positionsOf) => [
  { kind: 'head', head: 'value', positions: rows.map((row, index) => positionsOf(index, range(row.length))) },
  { kind: 'head', head: 'lm', positions: rows.map((row, index) => positionsOf(index, [row.length - 1])), columns: [3, 9] },
]);
const bitsOf = (values: readonly Float32Array[]) => values.flatMap((array) => [...new Uint32Array(array.buffer, array.byteOffset, array.length)]);

describe('weights in a weight arena', () => {
  const model = testModel(11, { maxPositions: 128 });
  const weightBytes = [...model.tensors.values()].reduce((sum, tensor) => sum + tensor.byteLength, 0);

  it.each([1, 2])(
    'are run where they lie on %i thread(s): the arena grows by scratch only, never by a copy of the weights, and the results are the same bits',
    async (threads) => {
      const plain = createTinyBackend(model, { threads });
      const placed = inArena(model);
      const adopted = await createTinyBackendAsync(placed.model, { threads });
      try {
        expect(adopted.info.description).toContain('kernels=wasm-simd');
        const expected = await plain.doForward(request);
        const actual = await adopted.doForward(request);
        expect(bitsOf(actual.reads.flatMap((read) => read.values))).toEqual(bitsOf(expected.reads.flatMap((read) => read.values)));
        // The kernels read the arena's own arrays: a change to one shows in the next pass (a copy would not see it).
        placed.model.tensors.get('model.layers.0.mlp.down_proj.weight')!.fill(0);
        const changed = await adopted.doForward(request);
        expect(bitsOf(changed.reads.flatMap((read) => read.values))).not.toEqual(bitsOf(expected.reads.flatMap((read) => read.values)));
        // Nothing the size of the weights was allocated beside them: the memory grew by scratch alone.
        expect(placed.arena.memory.buffer.byteLength - placed.bytesAfterLoad).toBeLessThan(weightBytes + 2 ** 20);
      } finally {
        await plain.dispose();
        await adopted.dispose();
      }
    },
  );

  it('are run where they lie when only some tensors lie in the arena (a loader past its room): the others are copied in beside them', async () => {
    const placed = inArena(model);
    const [firstName] = placed.model.tensors.keys();
    const outside = Float32Array.from(placed.model.tensors.get(firstName!)!);
    placed.model.tensors.set(firstName!, outside);
    const plain = createTinyBackend(model, { threads: 1 });
    const mixed = createTinyBackend(placed.model, { threads: 1 });
    try {
      const expected = await plain.doForward(request);
      const actual = await mixed.doForward(request);
      expect(bitsOf(actual.reads.flatMap((read) => read.values))).toEqual(bitsOf(expected.reads.flatMap((read) => read.values)));
      // The tensor outside the arena was copied in: a change to the caller's array does not reach the backend.
      outside.fill(0);
      expect(bitsOf((await mixed.doForward(request)).reads.flatMap((read) => read.values))).toEqual(bitsOf(expected.reads.flatMap((read) => read.values)));
      // The arena's own arrays are run where they lie: a change to one shows.
      placed.model.tensors.get('model.layers.0.mlp.down_proj.weight')!.fill(0);
      expect(bitsOf((await mixed.doForward(request)).reads.flatMap((read) => read.values))).not.toEqual(bitsOf(expected.reads.flatMap((read) => read.values)));
      expect(placed.arena.memory.buffer.byteLength - placed.bytesAfterLoad).toBeLessThan(weightBytes + 2 ** 20);
    } finally {
      await plain.dispose();
      await mixed.dispose();
    }
  });
});

describe('a kernel fallback is in the notes', () => {
  const model = testModel(12);

  it('weights past maximumWasmBytes take the scalar kernels under auto, said in info.notes and by resolveBackend; wasm-simd refuses', async () => {
    const capped = createTinyBackend(model, { threads: 1, maximumWasmBytes: 64 * 1024 });
    try {
      expect(capped.info.description).toMatch(/kernels=scalar \(wasm-simd: the weights do not fit in WebAssembly memory/);
      expect(capped.info.notes).toEqual([
        expect.stringMatching(/^backend "tiny" runs the scalar TypeScript kernels, slower than WebAssembly SIMD: wasm-simd: the weights do not fit/),
      ]);
      const resolved = await resolveBackend(
        'tiny',
        { kind: 'decoder', model, description: 'the test model' },
        { settings: { tiny: { maximumWasmBytes: 64 * 1024, threads: 1 } } },
      );
      expect(resolved.notes[1]).toMatch(/runs the scalar TypeScript kernels/);
      await resolved.backend.dispose();
    } finally {
      await capped.dispose();
    }
    expect(() => createTinyBackend(model, { threads: 1, kernels: 'wasm-simd', maximumWasmBytes: 64 * 1024 })).toThrow(/do not fit in WebAssembly memory/);
    const roomy = createTinyBackend(model, { threads: 1 });
    expect(roomy.info.notes).toBeUndefined();
    await roomy.dispose();
  });
});
