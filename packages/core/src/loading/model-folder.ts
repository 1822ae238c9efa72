import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { InvalidInputError } from '../errors/invalid-input-error.js';
import { ModelLoadError } from '../errors/model-load-error.js';
import { expectedTensorShapes, type HeadSpec } from '../model/decoder-config.js';
import { validateDecoderModel, type DecoderModel } from '../model/decoder-model.js';
import { collectDecoderTensors, decoderTensorName, type TensorSource } from './decoder-tensors.js';
import { decoderConfigFromHf, decoderConfigToHf, type DecoderConfigFromHfOptions, type DecoderConfigToHfOptions } from './hf-config.js';
import { parseSafetensors, serializeSafetensors } from './safetensors.js';

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
  const expected = expectedTensorShapes(config);
  const skipped: string[] = [];
  // Tensors the config does not use are never widened to float32 (a tied model's lm_head can be gigabytes).
  const wanted = (name: string) => {
    if (decoderTensorName(name, expected) !== undefined) return true;
    skipped.push(name);
    return false;
  };

  let sources: TensorSource[];
  let weightsFile: string;
  if (entries.includes('model.safetensors')) {
    weightsFile = join(folder, 'model.safetensors');
    const tensors = parseSafetensors(await readFile(weightsFile), weightsFile, { include: wanted });
    sources = [{ file: weightsFile, tensors }];
  } else if (entries.includes('model.safetensors.index.json')) {
    weightsFile = join(folder, 'model.safetensors.index.json');
    sources = await readShards(folder, entries, weightsFile, wanted);
  } else {
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
  const collected = collectDecoderTensors(config, sources, { weightsFile, skipped });
  const tokenizerJson = await readJson(tokenizerPath);
  const tokenizerConfig = entries.includes('tokenizer_config.json') ? await readJson(join(folder, 'tokenizer_config.json')) : null;
  return { model: collected.model, tokenizerJson, tokenizerConfig, notes: [...notes, ...collected.notes] };
}

async function readShards(folder: string, entries: string[], indexPath: string, wanted: (name: string) => boolean): Promise<TensorSource[]> {
  const index = await readJson(indexPath);
  const weightMap = (index as { weight_map?: unknown } | null)?.weight_map;
  if (typeof weightMap !== 'object' || weightMap === null || Array.isArray(weightMap)) {
    throw new ModelLoadError('has no "weight_map" object', { file: indexPath });
  }
  const namesByShard = new Map<string, string[]>();
  for (const [name, shard] of Object.entries(weightMap as Record<string, unknown>)) {
    // Shards must sit in the folder itself: an index must not send the loader elsewhere.
    if (typeof shard !== 'string' || shard === '' || /[\\/]/.test(shard) || shard === '..' || shard === '.') {
      throw new ModelLoadError(`weight_map gives tensor "${name}" the shard ${JSON.stringify(shard)}, which is not a file name in this folder`, {
        file: indexPath,
      });
    }
    if (!wanted(name)) continue;
    namesByShard.set(shard, [...(namesByShard.get(shard) ?? []), name]);
  }
  const sources: TensorSource[] = [];
  for (const [shard, names] of [...namesByShard].sort(([left], [right]) => (left < right ? -1 : 1))) {
    const shardPath = requireFile(folder, shard, entries);
    const listed = new Set(names);
    const tensors = parseSafetensors(await readFile(shardPath), shardPath, { include: (name) => listed.has(name) });
    const absent = names.filter((name) => !tensors.has(name));
    if (absent.length > 0) {
      throw new ModelLoadError(`tensor "${absent[0]}" is not in this shard, though model.safetensors.index.json lists it here`, { file: shardPath });
    }
    sources.push({ file: shardPath, tensors });
  }
  return sources;
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

async function readJson(path: string): Promise<unknown> {
  const text = await readFile(path, 'utf8');
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new ModelLoadError(`not valid JSON (${(error as Error).message})`, { file: path, cause: error });
  }
}
