import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ModelSource } from '../backend/model-source.js';
import { ModelLoadError } from '../errors/model-load-error.js';
import { loadDecoderFolder } from '../loading/model-folder.js';
import type { HeadSpec } from '../model/decoder-config.js';
import { recipePresets } from '../recipes/presets.js';
import type { ReadingRecipe } from '../recipes/reading-recipe.js';

/* Node only: ProcessRM.fromPretrained imports this file lazily, so core stays browser-safe. */

export interface PretrainedFolder {
  source: ModelSource;
  tokenizerJson: unknown;
  tokenizerConfig: unknown | null;
  /** The model's vocabulary size from config.json. */
  vocabSize: number;
  notes: string[];
}

async function readJson(path: string): Promise<unknown> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw new ModelLoadError('cannot be read', { file: path, cause: error });
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new ModelLoadError(`is not valid JSON (${error instanceof Error ? error.message : String(error)})`, { file: path, cause: error });
  }
}

/** The recipe a folder's `config.json` implies, when its architecture says it (else `undefined`). */
export function inferRecipe(config: unknown): ReadingRecipe | undefined {
  const architectures = (config as { architectures?: unknown } | null)?.architectures;
  const architecture = Array.isArray(architectures) && typeof architectures[0] === 'string' ? architectures[0] : '';
  if (architecture === 'Qwen2ForProcessRewardModel') return recipePresets['qwen2.5-math-prm'];
  if (architecture.endsWith('ForTokenClassification')) return recipePresets['trl-token-classification'];
  if (architecture.endsWith('ForSequenceClassification')) return recipePresets['sequence-classifier'];
  return undefined;
}

export async function readFolderConfig(folder: string): Promise<unknown> {
  return readJson(join(folder, 'config.json'));
}

/**
 * Reads what a PRM folder holds: an ONNX graph (`model.onnx` or `onnx/model.onnx`) when there is
 * one, else the safetensors weights; the tokenizer files either way. Nothing is executed.
 */
export async function readPretrainedFolder(folder: string, heads: HeadSpec[]): Promise<PretrainedFolder> {
  let entries: string[];
  try {
    entries = await readdir(folder);
  } catch (error) {
    throw new ModelLoadError('is not a readable model folder', { file: folder, cause: error });
  }
  const onnxPath = entries.includes('model.onnx')
    ? join(folder, 'model.onnx')
    : entries.includes('onnx') && (await readdir(join(folder, 'onnx')).catch((): string[] => [])).includes('model.onnx')
      ? join(folder, 'onnx', 'model.onnx')
      : undefined;
  if (onnxPath) {
    const config = await readFolderConfig(folder);
    if (!entries.includes('tokenizer.json'))
      throw new ModelLoadError(`tokenizer.json is missing beside ${onnxPath} (the folder holds: ${entries.join(', ')})`, { file: folder });
    const tokenizerJson = await readJson(join(folder, 'tokenizer.json'));
    const tokenizerConfig = entries.includes('tokenizer_config.json') ? await readJson(join(folder, 'tokenizer_config.json')) : null;
    const vocabSize = Number((config as { vocab_size?: unknown }).vocab_size);
    return {
      source: { kind: 'onnx', path: onnxPath, description: `the ONNX graph ${onnxPath}` },
      tokenizerJson,
      tokenizerConfig,
      vocabSize,
      notes: [`found ${onnxPath}: the ONNX graph is run, not the safetensors weights`],
    };
  }
  const loaded = await loadDecoderFolder(folder, { heads });
  return {
    source: { kind: 'decoder', model: loaded.model, description: `the weights in ${folder}` },
    tokenizerJson: loaded.tokenizerJson,
    tokenizerConfig: loaded.tokenizerConfig,
    vocabSize: loaded.model.config.vocabSize,
    notes: loaded.notes,
  };
}
