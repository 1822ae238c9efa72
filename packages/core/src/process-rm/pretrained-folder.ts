import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ModelSource } from '../backend/model-source.js';
import { ModelLoadError } from '../errors/model-load-error.js';
import { loadDecoderFolder } from '../loading/model-folder.js';
import { findOnnxGraph } from '../loading/onnx-graph-file.js';
import type { DecoderConfigFromHfOptions } from '../loading/hf-config.js';
import type { HeadSpec } from '../model/decoder-config.js';
import { inferRecipe } from '../recipes/infer-recipe.js';
import { stepDetectorFileName, validateStepDetector, type StepDetector } from '../step-detection/step-detector.js';

/* Node only: ProcessRM.fromPretrained imports this file lazily, so core stays browser-safe. */

export interface PretrainedFolder {
  source: ModelSource;
  tokenizerJson: unknown;
  tokenizerConfig: unknown | null;
  /** The model's vocabulary size from config.json. */
  vocabSize: number;
  /** The folder's `step-detector.json`, when it has one. */
  stepDetector?: StepDetector;
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

export { inferRecipe };

/** The folder's learned step-boundary detector, checked, or undefined when it has none. A malformed one is a `ModelLoadError` naming the file. */
async function readStepDetector(folder: string, entries: readonly string[]): Promise<StepDetector | undefined> {
  if (!entries.includes(stepDetectorFileName)) return undefined;
  const path = join(folder, stepDetectorFileName);
  const value = await readJson(path);
  try {
    return validateStepDetector(value, 'step detector');
  } catch (error) {
    throw new ModelLoadError(`is not a step detector this version reads (${error instanceof Error ? error.message : String(error)})`, {
      file: path,
      cause: error,
    });
  }
}

export async function readFolderConfig(folder: string): Promise<unknown> {
  return readJson(join(folder, 'config.json'));
}

/**
 * Reads what a PRM folder holds: an ONNX graph (see `findOnnxGraph`: the read-positions graph
 * of an export, `model.onnx` or `onnx/model.onnx`) when there is one, else the safetensors weights; the tokenizer files either way. Nothing is executed.
 */
export async function readPretrainedFolder(folder: string, heads: HeadSpec[], options: DecoderConfigFromHfOptions = {}): Promise<PretrainedFolder> {
  let entries: string[];
  try {
    entries = await readdir(folder);
  } catch (error) {
    throw new ModelLoadError('is not a readable model folder', { file: folder, cause: error });
  }
  const stepDetector = await readStepDetector(folder, entries);
  const detectorFields = stepDetector ? { stepDetector } : {};
  const detectorNotes = stepDetector ? [`found ${stepDetectorFileName}: learned step detector "${stepDetector.name}"`] : [];
  const onnxPath = await findOnnxGraph(folder);
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
      ...detectorFields,
      notes: [`found ${onnxPath}: the ONNX graph is run, not the safetensors weights`, ...detectorNotes],
    };
  }
  const loaded = await loadDecoderFolder(folder, { heads, ...options });
  return {
    source: { kind: 'decoder', model: loaded.model, description: `the weights in ${folder}` },
    tokenizerJson: loaded.tokenizerJson,
    tokenizerConfig: loaded.tokenizerConfig,
    vocabSize: loaded.model.config.vocabSize,
    ...detectorFields,
    notes: [...loaded.notes, ...detectorNotes],
  };
}
