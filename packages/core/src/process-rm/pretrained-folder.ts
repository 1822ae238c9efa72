import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { ModelSource } from '../backend/model-source.js';
import { ModelLoadError } from '../errors/model-load-error.js';
import { loadDecoderFolder } from '../loading/model-folder.js';
import { readModelJsonFile as readJson } from '../loading/model-file.js';
import { findOnnxGraph } from '../loading/onnx-graph-file.js';
import type { DecoderConfigFromHfOptions } from '../loading/hf-config.js';
import type { HeadSpec } from '../model/decoder-config.js';
import { inferRecipe } from '../recipes/infer-recipe.js';

/* Node only: ProcessRM.fromPretrained imports this file lazily, so core stays browser-safe. */

export interface PretrainedFolder {
  source: ModelSource;
  tokenizerJson: unknown;
  tokenizerConfig: unknown | null;
  /** The model's vocabulary size from config.json. */
  vocabSize: number;
  notes: string[];
}

export { inferRecipe };

export async function readFolderConfig(folder: string): Promise<unknown> {
  return readJson(join(folder, 'config.json'));
}

/** Which of a folder's files to read when it holds both a graph and weights (see `readsWeightsOverGraph`). */
export interface FolderChoice {
  /** The backend asked for by name, which runs weights and not graphs: read the weights. */
  preferWeights: boolean;
  /** Its name, for the note. */
  backend: string;
}

const weightFiles = ['model.safetensors', 'model.safetensors.index.json'];

/**
 * Reads what a PRM folder holds: an ONNX graph (see `findOnnxGraph`: the read-positions graph
 * of an export, `model.onnx` or `onnx/model.onnx`) when there is one, else the safetensors
 * weights; the tokenizer files either way. When the folder holds both, the graph is read unless
 * `choice.preferWeights` (the named backend runs weights only); a note says which was read.
 * Nothing is executed.
 */
export async function readPretrainedFolder(
  folder: string,
  heads: HeadSpec[],
  options: DecoderConfigFromHfOptions = {},
  choice: FolderChoice = { preferWeights: false, backend: 'auto' },
): Promise<PretrainedFolder> {
  let entries: string[];
  try {
    entries = await readdir(folder);
  } catch (error) {
    throw new ModelLoadError('is not a readable model folder', { file: folder, cause: error });
  }
  const onnxPath = await findOnnxGraph(folder);
  const hasWeights = entries.some((entry) => weightFiles.includes(entry));
  if (onnxPath && !(choice.preferWeights && hasWeights)) {
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
      notes: hasWeights
        ? [`found ${onnxPath}: the ONNX graph is run, not the safetensors weights (a backend named that runs weights, such as tiny, reads them)`]
        : [],
    };
  }
  const loaded = await loadDecoderFolder(folder, { heads, ...options });
  if (onnxPath) loaded.notes.unshift(`backend "${choice.backend}" runs weights, not ONNX graphs: the safetensors weights are read, not ${onnxPath}`);
  return {
    source: { kind: 'decoder', model: loaded.model, description: `the weights in ${folder}` },
    tokenizerJson: loaded.tokenizerJson,
    tokenizerConfig: loaded.tokenizerConfig,
    vocabSize: loaded.model.config.vocabSize,
    notes: loaded.notes,
  };
}
