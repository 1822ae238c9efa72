import { spawnSync } from 'node:child_process';
import { mkdir, mkdtemp, open, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ModelLoadError, expectedTensorShapes, createRandomDecoder, tinyDecoderConfig } from '@reward-lens/spec';
import { ProcessRM } from './process-rm.js';

import { decoderConfigToHf, serializeSafetensors } from '@reward-lens/loaders';
import { loadDecoderFolder } from '@reward-lens/loaders/node';

const root = await mkdtemp(join(tmpdir(), 'reward-lens-hostile-folder-'));
afterAll(() => rm(root, { recursive: true, force: true }));

const model = createRandomDecoder({ seed: 3 });
const heads = tinyDecoderConfig.heads;
const tokenizerJson = { model: { type: 'BPE', vocab: { a: 0 } } };
let folderCount = 0;

async function folderWith(config: Record<string, unknown> = decoderConfigToHf(model.config)): Promise<string> {
  const folder = join(root, `case-${folderCount++}`);
  await mkdir(folder);
  await writeFile(join(folder, 'config.json'), JSON.stringify(config));
  await writeFile(join(folder, 'tokenizer.json'), JSON.stringify(tokenizerJson));
  return folder;
}

function modelTensors() {
  const tensors = new Map<string, { shape: number[]; data: Float32Array }>();
  for (const [name, shape] of expectedTensorShapes(model.config)) tensors.set(name, { shape, data: model.tensors.get(name)! });
  return tensors;
}

async function loadError(folder: string): Promise<ModelLoadError> {
  const started = performance.now();
  const error = await loadDecoderFolder(folder, { heads }).then(
    () => undefined,
    (reason: unknown) => reason,
  );
  expect(ModelLoadError.isInstance(error), String(error)).toBe(true);
  // Refused from the header and the folder's listing, not after allocating: well under a second on any machine.
  expect(performance.now() - started).toBeLessThan(5_000);
  return error as ModelLoadError;
}

describe('model folders that are huge, hostile or broken', () => {
  it('loads a safetensors file well over 2 GiB, reading only the tensors the config uses', async () => {
    // A sparse file: an unused 2.6 GB tensor (the tied model never reads lm_head.weight) first, the used ones after it.
    const folder = await folderWith();
    const used = serializeSafetensors(modelTensors());
    const usedHeaderLength = Number(new DataView(used.buffer, used.byteOffset, 8).getBigUint64(0, true));
    const usedHeader = JSON.parse(new TextDecoder().decode(used.subarray(8, 8 + usedHeaderLength))) as Record<string, { data_offsets: number[] }>;
    const unusedBytes = 10_240_000 * 64 * 4;
    const header: Record<string, unknown> = { 'lm_head.weight': { dtype: 'F32', shape: [10_240_000, 64], data_offsets: [0, unusedBytes] } };
    for (const [name, entry] of Object.entries(usedHeader)) {
      if (name === '__metadata__') header[name] = entry;
      else header[name] = { ...entry, data_offsets: entry.data_offsets.map((offset) => offset + unusedBytes) };
    }
    let headerText = JSON.stringify(header);
    headerText += ' '.repeat((8 - (headerText.length % 8)) % 8);
    const headerBytes = new TextEncoder().encode(headerText);
    const file = await open(join(folder, 'model.safetensors'), 'w');
    const lengthBytes = new Uint8Array(8);
    new DataView(lengthBytes.buffer).setBigUint64(0, BigInt(headerBytes.length), true);
    await file.write(lengthBytes, 0, 8, 0);
    await file.write(headerBytes, 0, headerBytes.length, 8);
    const usedData = used.subarray(8 + usedHeaderLength);
    await file.write(usedData, 0, usedData.length, 8 + headerBytes.length + unusedBytes);
    await file.close();

    const before = process.memoryUsage().rss;
    const loaded = await loadDecoderFolder(folder, { heads });
    const grown = process.memoryUsage().rss - before;
    expect(loaded.model.tensors.get('model.norm.weight')).toEqual(model.tensors.get('model.norm.weight'));
    expect(loaded.model.tensors.get('model.layers.1.mlp.down_proj.weight')).toEqual(model.tensors.get('model.layers.1.mlp.down_proj.weight'));
    expect(loaded.notes.join(' ')).toMatch(/1 stored tensors are not used by this config and were skipped: "lm_head.weight"/);
    // The model's own tensors are under a megabyte; the unused tensor alone would be 2.6 GB.
    expect(grown).toBeLessThan(300 * 2 ** 20);
  });

  it('refuses a config declaring far more layers than the weights hold, before building per-layer tables', async () => {
    const folder = await folderWith({ ...decoderConfigToHf(model.config), num_hidden_layers: 1_000_000 });
    await writeFile(join(folder, 'model.safetensors'), serializeSafetensors(modelTensors()));
    const error = await loadError(folder);
    expect(error.message).toMatch(/config\.json: num_hidden_layers is 1000000, but the weights hold 2 layer\(s\)/);
  });

  it('refuses absurd dimensions from the header, before allocating', async () => {
    const folder = await folderWith({ ...decoderConfigToHf(model.config), vocab_size: 2_000_000_000 });
    await writeFile(join(folder, 'model.safetensors'), serializeSafetensors(modelTensors()));
    const error = await loadError(folder);
    expect(error.message).toMatch(/tensor "model\.embed_tokens\.weight" has shape \[512, 64\], the config needs \[2000000000, 64\]/);
  });

  it('names the path and the problem for directories, FIFOs and symbolic link loops where files belong', async () => {
    const cases: [string, (folder: string) => Promise<void>, RegExp][] = [
      [
        'config.json is a directory',
        async (folder) => rm(join(folder, 'config.json')).then(() => mkdir(join(folder, 'config.json'))),
        /config\.json: is a directory/,
      ],
      ['model.safetensors is a directory', async (folder) => mkdir(join(folder, 'model.safetensors')), /model\.safetensors: is a directory/],
      [
        'model.safetensors is a link loop',
        async (folder) => {
          await symlink(join(folder, 'loop-b'), join(folder, 'loop-a'));
          await symlink(join(folder, 'loop-a'), join(folder, 'loop-b'));
          await symlink(join(folder, 'loop-a'), join(folder, 'model.safetensors'));
        },
        /model\.safetensors: is a symbolic link loop/,
      ],
      [
        'model.safetensors is a FIFO (reading it would block forever)',
        async (folder) => {
          const made = spawnSync('mkfifo', [join(folder, 'model.safetensors')]);
          expect(made.status, String(made.stderr)).toBe(0);
        },
        /model\.safetensors: is not a regular file \(a FIFO/,
      ],
    ];
    for (const [label, arrange, message] of cases) {
      const folder = await folderWith();
      await arrange(folder);
      const error = await loadError(folder);
      expect(error.message, label).toMatch(message);
    }
  });
});

describe('ProcessRM.fromPretrained on hostile folders: a typed error naming the path, never a hang', () => {
  /** A loadable folder for the plain-value recipe (the tiny config's value head), broken by `arrange`. */
  async function brokenFolder(arrange: (folder: string) => Promise<void>): Promise<string> {
    const folder = await folderWith();
    await writeFile(join(folder, 'model.safetensors'), serializeSafetensors(modelTensors()));
    await arrange(folder);
    return folder;
  }

  async function fromPretrainedError(folder: string): Promise<ModelLoadError> {
    // Every case fails before a backend is resolved, so none needs to be registered here.
    const error = await ProcessRM.fromPretrained(folder, { recipe: 'plain-value', backend: 'tiny' }).then(
      () => undefined,
      (reason: unknown) => reason,
    );
    expect(ModelLoadError.isInstance(error), String(error)).toBe(true);
    return error as ModelLoadError;
  }

  const fifo = (path: string) => {
    const made = spawnSync('mkfifo', [path]);
    expect(made.status, String(made.stderr)).toBe(0);
  };

  it('config.json as a FIFO (read first, to infer the recipe)', async () => {
    const folder = await brokenFolder(async (folder) => rm(join(folder, 'config.json')).then(() => fifo(join(folder, 'config.json'))));
    const error = await ProcessRM.fromPretrained(folder).catch((reason: unknown) => reason);
    expect(ModelLoadError.isInstance(error), String(error)).toBe(true);
    expect((error as ModelLoadError).message).toBe(`${join(folder, 'config.json')}: is not a regular file (a FIFO, socket or device cannot be a model file)`);
  });

  it('model.onnx as a FIFO, a directory or a link loop beside the weights', async () => {
    const cases: [string, (folder: string) => Promise<void>, string][] = [
      ['a FIFO', async (folder) => fifo(join(folder, 'model.onnx')), 'is not a regular file (a FIFO, socket or device cannot be a model file)'],
      ['a directory', async (folder) => mkdir(join(folder, 'model.onnx')), 'is a directory, not a file'],
      [
        'a link loop',
        async (folder) => {
          await symlink(join(folder, 'loop-b'), join(folder, 'loop-a'));
          await symlink(join(folder, 'loop-a'), join(folder, 'loop-b'));
          await symlink(join(folder, 'loop-a'), join(folder, 'model.onnx'));
        },
        'is a symbolic link loop',
      ],
    ];
    for (const [label, arrange, reason] of cases) {
      const folder = await brokenFolder(arrange);
      expect((await fromPretrainedError(folder)).message, label).toBe(`${join(folder, 'model.onnx')}: ${reason}`);
    }
  });

  it('a tokenizer.json whose added_tokens is not a list, or holds a malformed entry, names the file', async () => {
    const cases: [unknown, string][] = [
      ['x', '"added_tokens" must be an array'],
      [[1], 'added_tokens[0]: an added token needs a string "content" and an integer "id"'],
    ];
    for (const [addedTokens, reason] of cases) {
      const folder = await brokenFolder(async (folder) =>
        writeFile(join(folder, 'tokenizer.json'), JSON.stringify({ ...tokenizerJson, added_tokens: addedTokens })),
      );
      const error = await fromPretrainedError(folder);
      expect(error.message).toBe(`${folder}/tokenizer.json: ${reason}`);
      expect(error.file).toBe(`${folder}/tokenizer.json`);
    }
  });
});
