import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { arenaPlacement, createWeightArena } from '@reward-lens/spec/internal';

import type { LoadProgress } from './decoder-files.js';
import { loadDecoderFolder } from './model-folder.js';
import { writeSeededFolder } from '../test/support/seeded-folder.js';

const { model, heads, folder } = await writeSeededFolder('reward-lens-decoder-progress-', 9);
const weightBytes = [...model.tensors.values()].reduce((sum, tensor) => sum + tensor.byteLength, 0);

describe('loading a decoder folder: progress, abort, and where the tensors go', () => {
  it('reports each tensor read, per file, up to every byte of the tensors the config uses', async () => {
    const events: LoadProgress[] = [];
    await loadDecoderFolder(folder, { heads, onProgress: (progress) => events.push(progress) });
    expect(events).toHaveLength(model.tensors.size);
    expect(new Set(events.map((event) => event.file))).toEqual(new Set([join(folder, 'model.safetensors')]));
    expect(events.every((event, index) => index === 0 || event.loaded > events[index - 1]!.loaded)).toBe(true);
    expect(events.at(-1)).toMatchObject({ loaded: weightBytes, total: weightBytes });
  });

  it('stops at an aborted signal with its reason: before any tensor, or part way', async () => {
    const reason = new Error('closed the tab');
    await expect(loadDecoderFolder(folder, { heads, signal: AbortSignal.abort(reason) })).rejects.toBe(reason);
    const controller = new AbortController();
    let events = 0;
    const error = await loadDecoderFolder(folder, {
      heads,
      signal: controller.signal,
      onProgress: () => {
        events += 1;
        if (events === 3) controller.abort();
      },
    }).catch((caught: unknown) => caught);
    expect((error as DOMException).name).toBe('AbortError');
    expect(events).toBe(3);
  });

  it('reads every tensor into a weight arena when given one, with the same values', async () => {
    const arena = createWeightArena()!;
    const loaded = await loadDecoderFolder(folder, { heads, allocate: (count) => arena.allocate(count) });
    for (const [name, tensor] of model.tensors) {
      const read = loaded.model.tensors.get(name)!;
      expect(arenaPlacement(read)?.memory, name).toBe(arena.memory);
      expect([...read]).toEqual([...tensor]);
    }
  });
});
