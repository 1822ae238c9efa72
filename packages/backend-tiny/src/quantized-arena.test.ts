import { createWeightArena, quantizationPlan, quantizeInto, quantizedBytes, quantizedTensorIn } from '@reward-lens/spec/internal';
import { hasCapability, type DecoderModel, type QuantizedTensorV1 } from '@reward-lens/spec';
import { describe, expect, it } from 'vitest';
import { createTinyBackend, createTinyBackendAsync } from './create-tiny-backend.js';
import { batchRequest, range } from '../test/support/requests.js';
import { testModel, tokenIds } from '../test/support/test-models.js';

/** The model as a loader quantizing as it reads gives it (`dtype` of `loadDecoderFiles`), every tensor in a new weight arena. */
function quantizedInArena(model: DecoderModel, dtype: 'q8' | 'q4') {
  const arena = createWeightArena()!;
  const plan = quantizationPlan(model.config, dtype).tensors;
  const tensors = new Map<string, Float32Array>();
  const quantized = new Map<string, QuantizedTensorV1>();
  for (const [name, tensor] of model.tensors) {
    const planned = plan.get(name);
    if (planned) {
      const held = quantizedTensorIn(
        arena.allocateBytes(quantizedBytes(planned.format, planned.rows, planned.columns))!,
        planned.format,
        planned.rows,
        planned.columns,
      );
      quantizeInto(held, tensor);
      quantized.set(name, held);
    } else {
      const view = arena.allocate(tensor.length)!;
      view.set(tensor);
      tensors.set(name, view);
    }
  }
  return { model: { config: model.config, tensors, quantized }, arena, bytesAfterLoad: arena.memory.buffer.byteLength };
}

const rows = [tokenIds(40, 61, 1), tokenIds(23, 61, 2)];
const request = batchRequest(rows, (positionsOf) => [
  { kind: 'head', head: 'value', positions: rows.map((row, index) => positionsOf(index, range(row.length))) },
]);
const bitsOf = (values: readonly Float32Array[]) => values.flatMap((array) => [...new Uint32Array(array.buffer, array.byteOffset, array.length)]);

describe('weights quantized as they were loaded', () => {
  const model = testModel(13, { maxPositions: 128 });
  const weightBytes = [...model.tensors.values()].reduce((sum, tensor) => sum + tensor.byteLength, 0);

  for (const dtype of ['q8', 'q4'] as const) {
    it.each([1, 2])(
      `${dtype} on %i thread(s): held where they lie in the arena, giving the bits of the backend quantizing the float32 model itself`,
      async (threads) => {
        const itself = createTinyBackend(model, { threads, dtype });
        const loaded = quantizedInArena(model, dtype);
        const adopted = await createTinyBackendAsync(loaded.model, { threads });
        try {
          expect(adopted.info.weightDtype).toBe(dtype);
          expect(adopted.info.notes?.join('\n')).toContain(`as ${dtype} (`);
          const expected = await itself.doForward(request);
          const actual = await adopted.doForward(request);
          expect(bitsOf(actual.reads.flatMap((read) => read.values))).toEqual(bitsOf(expected.reads.flatMap((read) => read.values)));
          // The arena grew by scratch alone: nothing the size of the weights was copied beside them.
          expect(loaded.arena.memory.buffer.byteLength - loaded.bytesAfterLoad).toBeLessThan(weightBytes / 4 + 2 ** 20);
          expect(hasCapability(adopted.capabilities, 'GRADIENTS')).toBe(false);
          expect((adopted as { doBackward?: unknown }).doBackward).toBeUndefined();
        } finally {
          await itself.dispose();
          await adopted.dispose();
        }
      },
    );
  }

  it("refuses dtype 'fp32' for a model that holds quantized tensors, rather than say fp32 of them", () => {
    const loaded = quantizedInArena(model, 'q8');
    expect(() => createTinyBackend(loaded.model, { dtype: 'fp32' })).toThrow(/dtype 'fp32' was asked for, but the model holds \d+ tensors quantized \(q8\)/);
  });
});
