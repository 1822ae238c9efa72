import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { InvalidInputError, ModelLoadError, expectedTensorShapes, createRandomDecoder, tinyDecoderConfig } from '@reward-lens/spec';

import { decoderConfigToHf } from './hf-config.js';
import { loadDecoderFolder, writeDecoderFolder } from './model-folder.js';
import { serializeSafetensors } from './safetensors.js';

const root = await mkdtemp(join(tmpdir(), 'reward-lens-model-folder-'));
afterAll(() => rm(root, { recursive: true, force: true }));

const model = createRandomDecoder({ seed: 7 });
const heads = tinyDecoderConfig.heads;
const tokenizerJson = { model: { type: 'BPE', vocab: { a: 0 } } };
let folderCount = 0;

/** Bit-for-bit equality, much faster than a deep equal over every element. */
function expectSameFloats(actual: Float32Array | undefined, expected: Float32Array | undefined) {
  expect(actual).toBeInstanceOf(Float32Array);
  expect(
    Buffer.from(actual!.buffer, actual!.byteOffset, actual!.byteLength).equals(Buffer.from(expected!.buffer, expected!.byteOffset, expected!.byteLength)),
  ).toBe(true);
}

/** A fresh folder holding config.json, tokenizer.json and whatever `files` adds. */
async function makeFolder(files: Record<string, string | Uint8Array>, options: { config?: boolean; tokenizer?: boolean } = {}): Promise<string> {
  const folder = join(root, `case-${folderCount++}`);
  await mkdir(folder);
  if (options.config !== false) await writeFile(join(folder, 'config.json'), JSON.stringify(decoderConfigToHf(model.config)));
  if (options.tokenizer !== false) await writeFile(join(folder, 'tokenizer.json'), JSON.stringify(tokenizerJson));
  for (const [name, content] of Object.entries(files)) await writeFile(join(folder, name), content);
  return folder;
}

/** The model's tensors with their shapes, renamed or filtered on the way. */
function shapedTensors(select: (name: string) => string | undefined = (name) => name) {
  const tensors = new Map<string, { shape: number[]; data: Float32Array }>();
  for (const [name, shape] of expectedTensorShapes(model.config)) {
    const storedName = select(name);
    if (storedName) tensors.set(storedName, { shape, data: model.tensors.get(name)! });
  }
  return tensors;
}

async function loadError(folder: string): Promise<ModelLoadError> {
  const error = await loadDecoderFolder(folder, { heads }).then(
    () => undefined,
    (reason: unknown) => reason,
  );
  expect(ModelLoadError.isInstance(error)).toBe(true);
  return error as ModelLoadError;
}

describe('Hugging Face model folders', () => {
  it('writes a folder and loads it back unchanged', async () => {
    const folder = join(root, 'written');
    const tokenizerConfig = { bos_token: '<s>', add_bos_token: true };
    await writeDecoderFolder(folder, { model, tokenizerJson, tokenizerConfig });
    const loaded = await loadDecoderFolder(folder, { heads });
    expect(loaded.model.config).toEqual(model.config);
    expect([...loaded.model.tensors.keys()].sort()).toEqual([...model.tensors.keys()].sort());
    for (const [name, data] of model.tensors) expectSameFloats(loaded.model.tensors.get(name), data);
    expect(loaded.tokenizerJson).toEqual(tokenizerJson);
    expect(loaded.tokenizerConfig).toEqual(tokenizerConfig);
    expect(loaded.notes).toEqual([]);
  });

  it('loads sharded weights through model.safetensors.index.json', async () => {
    const all = shapedTensors();
    const names = [...all.keys()];
    const firstHalf = new Map(names.slice(0, 10).map((name) => [name, all.get(name)!]));
    const secondHalf = new Map(names.slice(10).map((name) => [name, all.get(name)!]));
    const weightMap = Object.fromEntries(
      names.map((name, index) => [name, index < 10 ? 'model-00001-of-00002.safetensors' : 'model-00002-of-00002.safetensors']),
    );
    const folder = await makeFolder({
      'model-00001-of-00002.safetensors': serializeSafetensors(firstHalf, { format: 'pt' }),
      'model-00002-of-00002.safetensors': serializeSafetensors(secondHalf, { format: 'pt' }),
      'model.safetensors.index.json': JSON.stringify({ metadata: { total_size: 0 }, weight_map: weightMap }),
    });
    const loaded = await loadDecoderFolder(folder, { heads });
    for (const [name, data] of model.tensors) expectSameFloats(loaded.model.tensors.get(name), data);
    expect(loaded.tokenizerConfig).toBeNull();
  });

  it('reads a bare base model (no "model." prefix) and notes unused tensors', async () => {
    const tensors = shapedTensors((name) => name.replace(/^model\./, ''));
    tensors.set('model.layers.0.self_attn.rotary_emb.inv_freq', { shape: [8], data: new Float32Array(8) });
    const loaded = await loadDecoderFolder(await makeFolder({ 'model.safetensors': serializeSafetensors(tensors) }), { heads });
    expectSameFloats(loaded.model.tensors.get('model.norm.weight'), model.tensors.get('model.norm.weight'));
    expect(loaded.notes).toEqual([
      expect.stringMatching(/^\d+ tensors were stored without the "model\." prefix/),
      '1 stored tensors are not used by this config and were skipped: "model.layers.0.self_attn.rotary_emb.inv_freq"',
    ]);
  });

  it('names model.safetensors when a tensor is missing', async () => {
    const folder = await makeFolder({ 'model.safetensors': serializeSafetensors(shapedTensors((name) => (name === 'v_head.bias' ? undefined : name))) });
    const error = await loadError(folder);
    expect(error.file).toBe(join(folder, 'model.safetensors'));
    expect(error.message).toMatch(/tensor "v_head\.bias" is missing \(config needs shape \[1\]\)/);
  });

  it('names the file and both shapes when a tensor is misshapen', async () => {
    const tensors = shapedTensors();
    const gate = tensors.get('model.layers.1.mlp.gate_proj.weight')!;
    tensors.set('model.layers.1.mlp.gate_proj.weight', { shape: [64, 128], data: gate.data });
    const folder = await makeFolder({ 'model.safetensors': serializeSafetensors(tensors) });
    const error = await loadError(folder);
    expect(error.message).toBe(
      `${join(folder, 'model.safetensors')}: tensor "model.layers.1.mlp.gate_proj.weight" has shape [64, 128], the config needs [128, 64]`,
    );
  });

  it('refuses PyTorch pickles and says how to convert them', async () => {
    const folder = await makeFolder({ 'pytorch_model.bin': new Uint8Array([0x80, 0x02]) });
    const error = await loadError(folder);
    expect(error.file).toBe(join(folder, 'pytorch_model.bin'));
    expect(error.message).toMatch(/pickle files \(pytorch_model\.bin\), which reward-lens does not load .* convert them to safetensors/);
  });

  it('names a missing config.json and lists what the folder holds', async () => {
    const folder = await makeFolder({ 'model.safetensors': serializeSafetensors(shapedTensors()) }, { config: false });
    const error = await loadError(folder);
    expect(error.message).toBe(`${join(folder, 'config.json')}: file not found; the folder holds: model.safetensors, tokenizer.json`);
  });

  it('names missing weights, tokenizer.json and folders', async () => {
    const noWeights = await makeFolder({});
    expect((await loadError(noWeights)).message).toMatch(
      /model\.safetensors: file not found \(nor model\.safetensors\.index\.json\); the folder holds: config\.json, tokenizer\.json$/,
    );
    const noTokenizer = await makeFolder({ 'model.safetensors': serializeSafetensors(shapedTensors()) }, { tokenizer: false });
    expect((await loadError(noTokenizer)).file).toBe(join(noTokenizer, 'tokenizer.json'));
    expect((await loadError(join(root, 'absent'))).message).toMatch(/absent: folder not found$/);
  });

  it('checks the shard index: missing shards, tensors absent from their shard, names outside the folder', async () => {
    const index = (weightMap: Record<string, string>) => JSON.stringify({ weight_map: weightMap });
    const missingShard = await makeFolder({ 'model.safetensors.index.json': index({ 'model.norm.weight': 'model-00001-of-00001.safetensors' }) });
    expect((await loadError(missingShard)).file).toBe(join(missingShard, 'model-00001-of-00001.safetensors'));
    const emptyShard = await makeFolder({
      'model.safetensors.index.json': index({ 'model.norm.weight': 'shard.safetensors' }),
      'shard.safetensors': serializeSafetensors(new Map()),
    });
    expect((await loadError(emptyShard)).message).toMatch(/shard\.safetensors: tensor "model\.norm\.weight" is not in this shard/);
    const escaping = await makeFolder({ 'model.safetensors.index.json': index({ 'model.norm.weight': '../elsewhere.safetensors' }) });
    expect((await loadError(escaping)).message).toMatch(/index\.json: weight_map gives tensor "model\.norm\.weight" the shard "\.\.\/elsewhere\.safetensors"/);
  });

  it('refuses to write a model whose tensors do not fit its config', async () => {
    const broken = { config: model.config, tensors: new Map([...model.tensors].filter(([name]) => name !== 'model.norm.weight')) };
    const error = await writeDecoderFolder(join(root, 'never'), { model: broken, tokenizerJson }).then(
      () => undefined,
      (reason: unknown) => reason,
    );
    expect(InvalidInputError.isInstance(error)).toBe(true);
  });
});
