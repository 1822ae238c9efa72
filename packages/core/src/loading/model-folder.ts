import { mkdir, readdir, writeFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { InvalidInputError } from '../errors/invalid-input-error.js';
import { ModelLoadError } from '../errors/model-load-error.js';
import { expectedTensorShapes, type HeadSpec } from '../model/decoder-config.js';
import { validateDecoderModel, type DecoderModel } from '../model/decoder-model.js';
import { collectDecoderTensors, decoderTensorName, type TensorSource } from './decoder-tensors.js';
import { decoderConfigFromHf, decoderConfigToHf, type DecoderConfigFromHfOptions, type DecoderConfigToHfOptions } from './hf-config.js';
import { type SafetensorsTensor, serializeSafetensors } from './safetensors.js';
import { openSafetensorsFile, type SafetensorsFile } from './safetensors-file.js';
import { readModelJsonFile as readJson, requireRegularFile } from './model-file.js';

/* The one Node-only file of the loaders: everything here is file access around pure parsers. */

export interface DecoderFolder {
  model: DecoderModel;
  tokenizerJson: unknown;
  tokenizerConfig: unknown | null;
  notes: string[];
}

export interface DecoderFolderContents {
  model: DecoderModel;
  tokenizerJson: unknown;
  tokenizerConfig?: unknown;
  /** Passed to `decoderConfigToHf` (architectures, BOS and EOS ids). */
  hfConfig?: DecoderConfigToHfOptions;
  /** Written as `generation_config.json` when given (where generation stops). */
  generationConfig?: Record<string, unknown>;
}

/** Weights as PyTorch pickles (not the trainer's training_args.bin or optimizer.pt). */
const pickleWeightsFile = /^(pytorch_model|model|consolidated)[\w.-]*\.(bin|pt|pth|ckpt)$/;

/**
 * Loads a Hugging Face model folder: `config.json`, `model.safetensors` (or the shards listed in
 * `model.safetensors.index.json`), `tokenizer.json` and, when present, `tokenizer_config.json`.
 * Nothing in the folder is executed: PyTorch pickles are refused, not unpickled.
 *
 * @example
 * const { model, tokenizerJson } = await loadDecoderFolder('models/prm', { heads: [{ name: 'lm', kind: 'lm' }] });
 */
export async function loadDecoderFolder(folder: string, options: { heads: HeadSpec[] } & DecoderConfigFromHfOptions): Promise<DecoderFolder> {
  const entries = await listFolder(folder);
  const configPath = requireFile(folder, 'config.json', entries);
  // Checked before the weights are read, so that a missing tokenizer fails fast.
  const tokenizerPath = requireFile(folder, 'tokenizer.json', entries);
  const { config, notes } = decoderConfigFromHf(await readJson(configPath), configPath, options.heads, options);

  const { files, weightsFile, shardOf } = await openWeightFiles(folder, entries);
  try {
    // The config's sizes are checked against the files' headers before anything is allocated.
    checkLayerCount(config.numLayers, files, configPath);
    const expected = expectedTensorShapes(config);
    const skipped: string[] = [];
    const sources: TensorSource[] = [];
    for (const file of files) {
      const wanted = [...file.entries.keys()].filter((name) => {
        if (shardOf && shardOf.get(name) !== basename(file.path)) return false;
        if (decoderTensorName(name, expected) !== undefined) return true;
        skipped.push(name);
        return false;
      });
      checkShapes(wanted, file, expected);
      const tensors = new Map<string, SafetensorsTensor>();
      // Tensors the config does not use are never read (a tied model's lm_head can be gigabytes).
      for (const name of wanted) {
        const entry = file.entries.get(name)!;
        tensors.set(name, { dtype: entry.dtype, shape: entry.shape, data: await file.read(name) });
      }
      sources.push({ file: file.path, tensors });
    }
    const collected = collectDecoderTensors(config, sources, { weightsFile, skipped });
    const tokenizerJson = await readJson(tokenizerPath);
    const tokenizerConfig = entries.includes('tokenizer_config.json') ? await readJson(join(folder, 'tokenizer_config.json')) : null;
    return { model: collected.model, tokenizerJson, tokenizerConfig, notes: [...notes, ...collected.notes] };
  } finally {
    await Promise.all(files.map((file) => file.close()));
  }
}

/** The folder's safetensors files, opened with their headers read: one file, or the shards an index lists. */
async function openWeightFiles(folder: string, entries: string[]): Promise<{ files: SafetensorsFile[]; weightsFile: string; shardOf?: Map<string, string> }> {
  if (entries.includes('model.safetensors')) {
    const weightsFile = join(folder, 'model.safetensors');
    return { files: [await openSafetensorsFile(await requireRegularFile(weightsFile))], weightsFile };
  }
  if (entries.includes('model.safetensors.index.json')) {
    const weightsFile = join(folder, 'model.safetensors.index.json');
    const shardOf = await readShardIndex(weightsFile);
    const files: SafetensorsFile[] = [];
    try {
      for (const shard of [...new Set(shardOf.values())].sort()) {
        const file = await openSafetensorsFile(await requireRegularFile(requireFile(folder, shard, entries)));
        files.push(file);
        const absent = [...shardOf].find(([name, listed]) => listed === shard && !file.entries.has(name));
        if (absent) {
          throw new ModelLoadError(`tensor "${absent[0]}" is not in this shard, though model.safetensors.index.json lists it here`, { file: file.path });
        }
      }
    } catch (error) {
      await Promise.all(files.map((file) => file.close()));
      throw error;
    }
    return { files, weightsFile, shardOf };
  }
  const pickles = entries.filter((entry) => pickleWeightsFile.test(entry));
  if (pickles.length > 0) {
    throw new ModelLoadError(
      `the weights are only in PyTorch pickle files (${pickles.join(', ')}), which reward-lens does not load because unpickling can run code; ` +
        `convert them to safetensors first (in Python: from_pretrained(folder) then save_pretrained(out, safe_serialization=True))`,
      { file: join(folder, pickles[0]!) },
    );
  }
  throw missingFileError(folder, 'model.safetensors', entries, ' (nor model.safetensors.index.json)');
}

/** Tensor name to shard file name, from `model.safetensors.index.json`. */
async function readShardIndex(indexPath: string): Promise<Map<string, string>> {
  const index = await readJson(indexPath);
  const weightMap = (index as { weight_map?: unknown } | null)?.weight_map;
  if (typeof weightMap !== 'object' || weightMap === null || Array.isArray(weightMap)) {
    throw new ModelLoadError('has no "weight_map" object', { file: indexPath });
  }
  const shardOf = new Map<string, string>();
  for (const [name, shard] of Object.entries(weightMap as Record<string, unknown>)) {
    // Shards must sit in the folder itself: an index must not send the loader elsewhere.
    if (typeof shard !== 'string' || shard === '' || /[\\/]/.test(shard) || shard === '..' || shard === '.') {
      throw new ModelLoadError(`weight_map gives tensor "${name}" the shard ${JSON.stringify(shard)}, which is not a file name in this folder`, {
        file: indexPath,
      });
    }
    shardOf.set(name, shard);
  }
  return shardOf;
}

/**
 * A config that declares more layers than the weights hold is refused before per-layer tables are
 * built (`num_hidden_layers: 1000000` would otherwise take minutes and gigabytes to fail).
 */
function checkLayerCount(numLayers: number, files: readonly SafetensorsFile[], configPath: string): void {
  let stored = 0;
  for (const file of files) {
    for (const name of file.entries.keys()) {
      const match = /^(?:model\.)?layers\.(\d+)\./.exec(name);
      if (match) stored = Math.max(stored, Number(match[1]) + 1);
    }
  }
  if (numLayers > stored) {
    throw new ModelLoadError(`num_hidden_layers is ${numLayers}, but the weights hold ${stored} layer(s)`, { file: configPath });
  }
}

/** Every wanted tensor's stored shape against the config's, from the header alone (nothing is allocated yet). */
function checkShapes(names: readonly string[], file: SafetensorsFile, expected: ReadonlyMap<string, number[]>): void {
  for (const name of names) {
    const shape = expected.get(decoderTensorName(name, expected)!)!;
    const stored = file.entries.get(name)!.shape;
    if (stored.length !== shape.length || stored.some((dimension, index) => dimension !== shape[index])) {
      throw new ModelLoadError(`tensor "${name}" has shape [${stored.join(', ')}], the config needs [${shape.join(', ')}]`, { file: file.path });
    }
  }
}

/**
 * Writes a model as a Hugging Face folder: `config.json`, `model.safetensors` (float32, with
 * the `format: pt` metadata transformers asks for), `tokenizer.json`, `tokenizer_config.json`
 * and, when given, `generation_config.json`.
 */
export async function writeDecoderFolder(folder: string, contents: DecoderFolderContents): Promise<void> {
  const { model } = contents;
  try {
    validateDecoderModel(model, 'the model to write');
  } catch (error) {
    throw new InvalidInputError((error as Error).message, { cause: error });
  }
  const tensors = new Map<string, { shape: number[]; data: Float32Array }>();
  for (const [name, shape] of expectedTensorShapes(model.config)) tensors.set(name, { shape, data: model.tensors.get(name)! });
  await mkdir(folder, { recursive: true });
  const json = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;
  await writeFile(join(folder, 'config.json'), json(decoderConfigToHf(model.config, contents.hfConfig)));
  await writeFile(join(folder, 'model.safetensors'), serializeSafetensors(tensors, { format: 'pt' }));
  await writeFile(join(folder, 'tokenizer.json'), json(contents.tokenizerJson));
  if (contents.tokenizerConfig !== undefined) await writeFile(join(folder, 'tokenizer_config.json'), json(contents.tokenizerConfig));
  if (contents.generationConfig !== undefined) await writeFile(join(folder, 'generation_config.json'), json(contents.generationConfig));
}

async function listFolder(folder: string): Promise<string[]> {
  try {
    return (await readdir(folder)).sort();
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const reason = code === 'ENOENT' ? 'folder not found' : code === 'ENOTDIR' ? 'not a folder' : `cannot list the folder (${code ?? String(error)})`;
    throw new ModelLoadError(reason, { file: folder, cause: error });
  }
}

function requireFile(folder: string, name: string, entries: string[]): string {
  if (!entries.includes(name)) throw missingFileError(folder, name, entries);
  return join(folder, name);
}

function missingFileError(folder: string, name: string, entries: string[], detail = ''): ModelLoadError {
  const holds = entries.length > 0 ? entries.join(', ') : 'nothing';
  return new ModelLoadError(`file not found${detail}; the folder holds: ${holds}`, { file: join(folder, name) });
}
