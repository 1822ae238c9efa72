import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  isDecoderSource,
  isOnnxSource,
  type ModelSource,
  registerBackend,
  ModelLoadError,
  defineDecoderConfig,
  expectedTensorShapes,
  createRandomDecoder,
  tinyDecoderConfig,
} from '@reward-lens/spec';

import { decoderConfigToHf, modelFilesFromEntries, serializeSafetensors } from '@reward-lens/loaders';
import { writeDecoderFolder } from '@reward-lens/loaders/node';

import { recipePresets } from '../recipes/presets.js';
import { createReferenceBackend } from '../testing/reference/reference-backend.js';
import { ProcessRM } from './process-rm.js';
import { byteLevelTokenizerJson, registerOracle } from '../../test/support/byte-level-folder.js';

const root = await mkdtemp(join(tmpdir(), 'reward-lens-from-files-'));
afterAll(() => rm(root, { recursive: true, force: true }));

// A TRL token-classification PRM (the recipe config.json's architecture implies) with a byte-level BPE tokenizer.
const recipe = recipePresets['trl-token-classification']!;
const model = createRandomDecoder({ seed: 11, config: defineDecoderConfig({ ...tinyDecoderConfig, heads: recipe.heads }) });
const tokenizerJson = byteLevelTokenizerJson();
const hfConfig = { architectures: ['LlamaForTokenClassification'] };
const pair = { problem: 'Compute (2+2)*3-5.', steps: ['First, 2+2=4.', 'Then, 4*3=12.', 'Finally, 12-5=7.'] };

// The float64 oracle runs decoder weights; a graph source is recorded and run by the oracle on the same weights.
const handed: ModelSource[] = [];
registerOracle('oracle-for-files', model, handed, ['decoder', 'onnx']);
const backend = 'oracle-for-files';

let folderCount = 0;
async function writtenFolder(): Promise<string> {
  const folder = join(root, `folder-${folderCount++}`);
  await writeDecoderFolder(folder, { model, tokenizerJson, hfConfig });
  return folder;
}

/** Every file of a folder (and of its subfolders), as the entries a picked folder gives. */
async function entriesOf(folder: string, asBlobs = false): Promise<[string, Uint8Array | Blob][]> {
  const entries: [string, Uint8Array | Blob][] = [];
  for (const entry of await readdir(folder, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile()) continue;
    const name = join(entry.parentPath, entry.name).slice(folder.length + 1);
    const bytes = new Uint8Array(await readFile(join(folder, name)));
    entries.push([name, asBlobs ? new Blob([bytes]) : bytes]);
  }
  return entries;
}

async function curveOf(prm: ProcessRM): Promise<number[]> {
  return Array.from((await prm.stepScores([pair])).value.curves[0]!);
}

describe('ProcessRM.fromFiles', () => {
  it('reads a folder given as bytes or as Blobs exactly as fromPretrained reads it from disk, inferring the recipe', async () => {
    const folder = await writtenFolder();
    const fromDisk = await ProcessRM.fromPretrained(folder, { backend });
    const fromBytes = await ProcessRM.fromFiles(modelFilesFromEntries(await entriesOf(folder), { location: 'picked' }), { backend });
    const fromBlobs = await ProcessRM.fromFiles(new Map(await entriesOf(folder, true)), { backend });
    expect(fromBytes.recipe.name).toBe('trl-token-classification');
    expect(fromBytes.notes.join('\n')).toMatch(/recipe "trl-token-classification" inferred from config\.json's architecture/);
    const expected = await curveOf(fromDisk);
    expect(expected).toHaveLength(3);
    expect(await curveOf(fromBytes)).toEqual(expected);
    expect(await curveOf(fromBlobs)).toEqual(expected);
    const loaded = handed.at(-1)!;
    expect(loaded.description).toBe('the weights in <in-memory model>');
    expect(isDecoderSource(loaded) && [...loaded.model.tensors.keys()].sort()).toEqual([...expectedTensorShapes(model.config).keys()].sort());
  });

  it('reads shards listed by model.safetensors.index.json', async () => {
    const folder = join(root, 'sharded');
    await mkdir(folder);
    const names = [...expectedTensorShapes(model.config).keys()];
    const shardOf: Record<string, string> = {};
    for (const [index, shard] of ['model-00001-of-00002.safetensors', 'model-00002-of-00002.safetensors'].entries()) {
      const tensors = new Map<string, { shape: number[]; data: Float32Array }>();
      for (const name of names.filter((_, position) => position % 2 === index)) {
        tensors.set(name, { shape: expectedTensorShapes(model.config).get(name)!, data: model.tensors.get(name)! });
        shardOf[name] = shard;
      }
      await writeFile(join(folder, shard), serializeSafetensors(tensors));
    }
    await writeFile(join(folder, 'model.safetensors.index.json'), JSON.stringify({ weight_map: shardOf }));
    await writeFile(join(folder, 'config.json'), JSON.stringify(decoderConfigToHf(model.config, hfConfig)));
    await writeFile(join(folder, 'tokenizer.json'), JSON.stringify(tokenizerJson));
    const whole = await ProcessRM.fromPretrained(await writtenFolder(), { backend });
    const sharded = await ProcessRM.fromFiles(await entriesOf(folder, true), { backend });
    expect(await curveOf(sharded)).toEqual(await curveOf(whole));
  });

  it('hands a graph in memory to the backend as bytes with its config.json text, and a graph on disk by its path', async () => {
    const config = { ...decoderConfigToHf(model.config, hfConfig), reward_lens: { onnx_read_positions_graph: 'onnx/model_read_positions.onnx' } };
    const graph = Uint8Array.of(8, 8, 18, 0);
    const entries = {
      'config.json': new TextEncoder().encode(JSON.stringify(config)),
      'tokenizer.json': new TextEncoder().encode(JSON.stringify(tokenizerJson)),
      'onnx/model.onnx': Uint8Array.of(1),
      'onnx/model_read_positions.onnx': graph,
    };
    const prm = await ProcessRM.fromFiles(modelFilesFromEntries(entries, { location: 'my-prm' }), { backend });
    expect(prm.notes.join('\n')).toMatch(/ran the ONNX graph my-prm\/onnx\/model_read_positions\.onnx$/m);
    // No weights beside the graph, so no note about weights not read.
    expect(prm.notes.join('\n')).not.toMatch(/safetensors weights/);
    const inMemory = handed.at(-1)!;
    expect(isOnnxSource(inMemory)).toBe(true);
    expect(inMemory).toMatchObject({ kind: 'onnx', path: 'my-prm/onnx/model_read_positions.onnx', bytes: graph });
    expect(JSON.parse((inMemory as { configJson: string }).configJson)).toEqual(config);

    const folder = join(root, 'onnx-on-disk');
    await mkdir(join(folder, 'onnx'), { recursive: true });
    for (const [name, bytes] of Object.entries(entries)) await writeFile(join(folder, name), bytes);
    await ProcessRM.fromPretrained(folder, { backend });
    expect(handed.at(-1)).toEqual({
      kind: 'onnx',
      path: join(folder, 'onnx', 'model_read_positions.onnx'),
      description: `the ONNX graph ${join(folder, 'onnx', 'model_read_positions.onnx')}`,
    });
  });

  it('a folder holding a graph and weights is read as the named backend decides, in memory as on disk', async () => {
    const weightsOnly = 'oracle-weights-only-for-files';
    const remove = registerBackend({
      name: weightsOnly,
      priority: 0,
      explicitOnly: true,
      sourceKinds: ['decoder'],
      unavailableReason: () => null,
      async create(source) {
        handed.push(source);
        return createReferenceBackend(isDecoderSource(source) ? source.model : model);
      },
    });
    try {
      const entries = new Map(await entriesOf(await writtenFolder()));
      entries.set('model.onnx', Uint8Array.of(1));
      const files = () => modelFilesFromEntries(entries, { location: 'both' });
      const weights = await ProcessRM.fromFiles(files(), { backend: weightsOnly });
      expect(isDecoderSource(handed.at(-1)!)).toBe(true);
      expect(weights.notes).toContain(`backend "${weightsOnly}" runs weights, not ONNX graphs: the safetensors weights are read, not both/model.onnx`);
      const graph = await ProcessRM.fromFiles(files(), { backend });
      expect(handed.at(-1)).toMatchObject({ kind: 'onnx', path: 'both/model.onnx' });
      expect(graph.notes).toContain(
        'found both/model.onnx: the ONNX graph is run, not the safetensors weights (a backend named that runs weights, such as tiny, reads them)',
      );
    } finally {
      remove();
    }
  });

  it('names the folder and the problem: missing files, no recipe to infer, pickles, a graph whose weights are in another file', async () => {
    const text = (value: unknown) => new TextEncoder().encode(JSON.stringify(value));
    const failure = async (entries: Record<string, Uint8Array>, options = {}) => {
      const error = await ProcessRM.fromFiles(modelFilesFromEntries(entries, { location: 'picked' }), { backend, ...options }).catch(
        (caught: unknown) => caught,
      );
      expect(ModelLoadError.isInstance(error), String(error)).toBe(true);
      return (error as Error).message;
    };
    const config = text(decoderConfigToHf(model.config, hfConfig));
    expect(await failure({ 'tokenizer.json': text(tokenizerJson) })).toBe('picked/config.json: file not found; the folder holds: tokenizer.json');
    expect(await failure({ 'config.json': text(decoderConfigToHf(model.config)), 'tokenizer.json': text(tokenizerJson) })).toMatch(
      /^picked\/config\.json: config\.json does not say how this model is read as a PRM .*pass a recipe/,
    );
    expect(await failure({ 'config.json': text([]), 'tokenizer.json': text(tokenizerJson) })).toBe(
      'picked/config.json: config.json is not a JSON object (it holds an array)',
    );
    expect(await failure({ 'config.json': config, 'tokenizer.json': text(tokenizerJson), 'pytorch_model.bin': Uint8Array.of(0) })).toMatch(
      /^picked\/pytorch_model\.bin: the weights are only in PyTorch pickle files/,
    );
    expect(await failure({ 'config.json': config, 'onnx/model.onnx': Uint8Array.of(1) })).toMatch(
      /tokenizer\.json is missing beside picked\/onnx\/model\.onnx/,
    );
    expect(
      await failure({
        'config.json': config,
        'tokenizer.json': text(tokenizerJson),
        'onnx/model.onnx': Uint8Array.of(1),
        'onnx/model.onnx_data': Uint8Array.of(2),
      }),
    ).toMatch(/^picked\/onnx\/model\.onnx: the graph's weights are in a separate file \(onnx\/model\.onnx_data\), which onnxruntime reads only from disk/);
  });
});
