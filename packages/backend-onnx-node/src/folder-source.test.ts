import { readdir, rm, writeFile, mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadDecoderFolder, writeDecoderFolder } from '@reward-lens/loaders/node';
import { createRandomDecoder, formatCapabilities, ModelLoadError, resolveBackend, type DecoderFolderSource, type DecoderModel } from '@reward-lens/spec';
import { afterAll, describe, expect, it } from 'vitest';
import { batchOf, valueAt } from '../test/support/requests.js';
import './register.js';

const root = await mkdtemp(join(tmpdir(), 'reward-lens-onnx-node-folder-'));
afterAll(() => rm(root, { recursive: true, force: true }));

const model: DecoderModel = createRandomDecoder({ seed: 12 });
const folder = join(root, 'prm');
await writeDecoderFolder(folder, { model, tokenizerJson: { model: { type: 'BPE' } } });
const ids = [5, 6, 7, 8, 9, 10, 11, 12, 40, 41];
const request = batchOf([{ ids }], (positions) => [valueAt(positions), { kind: 'head', head: 'value', positions, layer: 1 }]);
const settings = { settings: { 'onnx-node': { intraOpThreads: 1 } } };

function folderSource(extra: Partial<DecoderFolderSource> = {}): DecoderFolderSource {
  return { kind: 'decoder-folder', folder, heads: model.config.heads, description: `the weights in ${folder}`, ...extra };
}

/** Temporary graph folders left in the temporary directory by this file's exports. */
async function graphFolders(): Promise<string[]> {
  return (await readdir(tmpdir())).filter((name) => name.startsWith('reward-lens-onnx-') && !name.startsWith('reward-lens-onnx-node-'));
}

describe('a weights folder handed to onnx-node unread', () => {
  it.each(['fp32', 'q4'] as const)('%s: is read and exported by a thread, and scores as the same weights read here and exported in memory', async (dtype) => {
    const progress: { file: string; loaded: number; total: number }[] = [];
    const before = new Set(await graphFolders());
    const viaThread = await resolveBackend('onnx-node', folderSource({ onProgress: (event) => progress.push(event) }), { ...settings, dtype });
    const loaded = await loadDecoderFolder(folder, { heads: model.config.heads, ...(dtype === 'fp32' ? {} : { dtype }) });
    const inMemory = await resolveBackend('onnx-node', { kind: 'decoder', model: loaded.model, description: 'read here' }, { ...settings, dtype });
    try {
      expect(viaThread.backend.info.description).toContain('by a thread that read');
      expect(viaThread.backend.info.weightDtype ?? 'fp32').toBe(dtype);
      // The thread's temporary graph is removed once onnxruntime holds it.
      expect((await graphFolders()).filter((name) => !before.has(name))).toEqual([]);
      expect(progress.at(-1)).toMatchObject({ file: join(folder, 'model.safetensors') });
      expect(progress.at(-1)!.loaded).toBe(progress.at(-1)!.total);
      // The heads' weights came back from the thread: inner layers are read in JavaScript as before.
      expect(formatCapabilities(viaThread.backend.capabilities)).toBe(formatCapabilities(inMemory.backend.capabilities));
      expect(formatCapabilities(viaThread.backend.capabilities)).toContain('LINEAR_READOUT');
      const [thread, memory] = [await viaThread.backend.doForward(request), await inMemory.backend.doForward(request)];
      for (const read of [0, 1]) expect(Array.from(thread.reads[read]!.values[0]!)).toEqual(Array.from(memory.reads[read]!.values[0]!));
    } finally {
      await viaThread.backend.dispose();
      await inMemory.backend.dispose();
    }
  });

  it('a corrupt weights file is a ModelLoadError naming it, thrown from the thread as it was thrown there, and nothing is left behind', async () => {
    const broken = join(root, 'broken');
    await writeDecoderFolder(broken, { model, tokenizerJson: { model: { type: 'BPE' } } });
    const weights = join(broken, 'model.safetensors');
    const bytes = await readFile(weights);
    await writeFile(weights, bytes.subarray(0, Math.floor(bytes.byteLength / 2)));
    const before = new Set(await graphFolders());
    const error = await resolveBackend('onnx-node', folderSource({ folder: broken }), settings).then(
      () => undefined,
      (caught: unknown) => caught,
    );
    const cause = (error as { cause?: unknown; attempts?: { error?: unknown }[] }) ?? {};
    const thrown = [error, cause.cause, ...(cause.attempts ?? []).map((attempt) => attempt.error)].find((candidate) => ModelLoadError.isInstance(candidate));
    expect(thrown, String(error)).toBeDefined();
    expect((thrown as ModelLoadError).file).toBe(weights);
    expect((await graphFolders()).filter((name) => !before.has(name))).toEqual([]);
  });

  it('a weight that cannot be quantized (NaN) is a ModelLoadError naming its tensor and file, from the quantizing threads', async () => {
    const poisoned = join(root, 'poisoned');
    const tensors = new Map(model.tensors);
    const name = 'model.layers.1.mlp.down_proj.weight';
    const weights = tensors.get(name)!.slice();
    weights[7] = Number.NaN;
    tensors.set(name, weights);
    await writeDecoderFolder(poisoned, { model: { config: model.config, tensors }, tokenizerJson: { model: { type: 'BPE' } } });
    const before = new Set(await graphFolders());
    const error = await resolveBackend('onnx-node', folderSource({ folder: poisoned }), { ...settings, dtype: 'q4' }).then(
      () => undefined,
      (caught: unknown) => caught,
    );
    const cause = (error as { attempts?: { error?: unknown }[] }) ?? {};
    const thrown = [error, ...(cause.attempts ?? []).map((attempt) => attempt.error)].find((candidate) => ModelLoadError.isInstance(candidate));
    expect(thrown, String(error)).toBeDefined();
    expect((thrown as ModelLoadError).file).toBe(join(poisoned, 'model.safetensors'));
    expect((thrown as Error).message).toContain(`tensor "${name}" cannot be held as q4`);
    expect((await graphFolders()).filter((entry) => !before.has(entry))).toEqual([]);
  });

  it('an aborted signal stops the thread: creation rejects with its reason, and the temporary folder is removed', async () => {
    const controller = new AbortController();
    const before = new Set(await graphFolders());
    const reason = new Error('stopped by the test');
    const pending = resolveBackend('onnx-node', folderSource({ signal: controller.signal, onProgress: () => controller.abort(reason) }), settings);
    const error = await pending.then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect(String(error)).toContain('stopped by the test');
    expect((await graphFolders()).filter((name) => !before.has(name))).toEqual([]);
  });

  it('a dtype onnx-node does not hold is refused before any thread starts', async () => {
    const error = await resolveBackend('onnx-node', folderSource(), { ...settings, dtype: 'bf16' }).then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect(String(error)).toContain('bf16');
  });
});
