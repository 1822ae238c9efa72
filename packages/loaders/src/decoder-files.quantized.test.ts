import { describe, expect, it } from 'vitest';
import { validateDecoderModel } from '@reward-lens/spec';
import { arenaPlacement, createWeightArena, quantizationPlan, quantizeTensor } from '@reward-lens/spec/internal';

import { loadDecoderFolder } from './model-folder.js';
import { writeSeededFolder } from '../test/support/seeded-folder.js';

const { model, heads, folder } = await writeSeededFolder('reward-lens-decoder-quantized-', 11);

describe('loading a decoder folder quantized as it is read', () => {
  for (const dtype of ['q8', 'q4'] as const) {
    it(`${dtype}: the planned matrices come quantized, as quantizing the float32 tensors gives, the rest float32`, async () => {
      const loaded = await loadDecoderFolder(folder, { heads, dtype });
      const plan = quantizationPlan(model.config, dtype).tensors;
      expect(plan.size).toBeGreaterThan(0);
      expect(new Set(loaded.model.quantized!.keys())).toEqual(new Set(plan.keys()));
      for (const [name, { format, rows, columns }] of plan) {
        const expected = quantizeTensor(model.tensors.get(name)!, format, rows, columns);
        const held = loaded.model.quantized!.get(name)!;
        expect(held.format).toBe(format);
        expect([...held.bytes]).toEqual([...expected.bytes]);
        expect(loaded.model.tensors.has(name)).toBe(false);
      }
      for (const [name, tensor] of model.tensors) if (!plan.has(name)) expect(loaded.model.tensors.get(name)).toEqual(tensor);
      // A consumer of float32 tensors refuses it, naming a quantized tensor.
      expect(() => validateDecoderModel(loaded.model, 'here')).toThrow(/is held quantized \(.*\), and this consumer takes float32 tensors only/);
    });
  }

  it('puts the quantized tensors in a weight arena when given one, beside the float32 ones', async () => {
    const arena = createWeightArena()!;
    const loaded = await loadDecoderFolder(folder, {
      heads,
      dtype: 'q8',
      allocate: (count) => arena.allocate(count),
      allocateBytes: (bytes) => arena.allocateBytes(bytes),
    });
    for (const tensor of loaded.model.quantized!.values()) expect(arenaPlacement(tensor.bytes)?.memory).toBe(arena.memory);
    for (const tensor of loaded.model.tensors.values()) expect(arenaPlacement(tensor)?.memory).toBe(arena.memory);
  });

  it('fp32 (the default) quantizes nothing', async () => {
    const loaded = await loadDecoderFolder(folder, { heads, dtype: 'fp32' });
    expect(loaded.model.quantized).toBeUndefined();
    expect(loaded.model.tensors.size).toBe(model.tensors.size);
  });
});
