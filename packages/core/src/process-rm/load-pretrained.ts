import { readsDecoderFolders, readsWeightsOverGraph, resolveBackend, type ResolvedBackend, ModelLoadError, type WeightDtypeV1 } from '@reward-lens/spec';
import { backendCreateOptions, checkDtype, checkThreads } from '@reward-lens/spec/internal';

import { readJsonFile, requireEntry, type LoadProgress, type ModelFiles } from '@reward-lens/loaders';
import { inferRecipe } from '../recipes/infer-recipe.js';
import { resolveRecipe } from '../recipes/resolve-recipe.js';
import type { ReadingRecipe } from '../recipes/reading-recipe.js';
import { createHfTokenizer, type PrmTokenizer } from '@reward-lens/tokenizers';
import type { StepDetector } from '../step-detection/step-detector.js';
import { readPretrainedFiles } from './pretrained-files.js';
import { calibrationFileName } from './folder-calibration.js';
import type { StepCalibration } from '../calibration/step-calibration.js';
import type { ProcessRMOptions } from './process-rm-options.js';

export interface PretrainedOptions {
  /** How the model is read: a preset name (`reward-lens recipes` lists them) or a recipe. Inferred from config.json when it can be. */
  recipe?: string | ReadingRecipe;
  /** Which backend runs it: a registered name or `'auto'` (default). */
  backend?: string;
  /** Per-backend settings, under the backend's name. */
  backendSettings?: Record<string, unknown>;
  /** CPU threads to compute on, whatever the backend (see `BackendCreateOptions.threads`); default every core. */
  threads?: number;
  /**
   * How the backend holds the weights, as transformers.js's `dtype`: `'fp32'` (default); `'bf16'`
   * or `'fp16'` (2 bytes a weight), `'q8'` or `'q4'` (about 1 and 0.6), each matrix made as it is
   * read (backend-tiny). Scores then differ a little from the fp32 model's, and the notes say so.
   * Under `'auto'`, backends that cannot hold the dtype are skipped with that reason.
   */
  dtype?: WeightDtypeV1;
  /** A sliding window shorter than the positions: refused (default), or positions limited to it (see `DecoderConfigFromHfOptions`). */
  slidingWindow?: 'refuse' | 'limit-positions';
  /**
   * Called as the weights are read, after each tensor: `{ file, loaded, total }` in bytes per
   * weights file (transformers.js's `progress_callback`). An ONNX graph is handed to its backend
   * whole and reports nothing.
   */
  onProgress?: (progress: LoadProgress) => void;
  /** Stops loading (checked before each file and each tensor): the call rejects with the signal's reason, every file closed. */
  signal?: AbortSignal;
}

export type LoadedPretrained = ResolvedBackend & {
  tokenizer: PrmTokenizer;
  recipe: ReadingRecipe;
  stepDetector?: StepDetector;
  /** The file errors about the model name: the ONNX graph run, or the folder of the weights. */
  modelFile: string;
  /** The folder's `calibration.json`, when it has one. */
  calibration?: StepCalibration;
};

/** Loads a PRM folder's model, tokenizer and recipe from disk, and resolves a backend for it (Node only). */
export async function loadPretrained(folder: string, options: PretrainedOptions): Promise<LoadedPretrained> {
  // `#pretrained-folder` (package.json "imports") is ./pretrained-folder.js under the `node` condition and a
  // module that throws a typed error elsewhere, so a browser bundle of core never reaches node:fs.
  const { modelFilesFromFolder } = await import('#pretrained-folder');
  return loadPretrainedFiles(await modelFilesFromFolder(folder), options);
}

/**
 * Loads a PRM folder's model, tokenizer and recipe from its files, wherever they are (browser-safe),
 * and resolves a backend for it: the one loader behind `fromPretrained` and `fromFiles`.
 */
export async function loadPretrainedFiles(files: ModelFiles, options: PretrainedOptions): Promise<LoadedPretrained> {
  checkThreads(options.threads);
  checkDtype(options.dtype);
  options.signal?.throwIfAborted();
  const notes: string[] = [];
  let recipe: ReadingRecipe;
  if (options.recipe !== undefined) {
    recipe = resolveRecipe(options.recipe);
  } else {
    const config = await readJsonFile(files, requireEntry(files, 'config.json', await files.list()));
    if (typeof config !== 'object' || config === null || Array.isArray(config)) {
      throw new ModelLoadError(
        `config.json is not a JSON object (it holds ${Array.isArray(config) ? 'an array' : config === null ? 'null' : `a ${typeof config}`})`,
        {
          file: files.describe('config.json'),
        },
      );
    }
    const inferred = inferRecipe(config);
    if (!inferred) {
      throw new ModelLoadError(
        'config.json does not say how this model is read as a PRM (its architecture is a plain language model or unknown); pass a recipe, e.g. { recipe: "math-shepherd" }',
        { file: files.describe('config.json') },
      );
    }
    recipe = inferred;
    notes.push(`recipe "${recipe.name}" inferred from config.json's architecture`);
  }
  const backend = options.backend ?? 'auto';
  const loading = {
    ...(options.slidingWindow ? { slidingWindow: options.slidingWindow } : {}),
    ...(options.onProgress ? { onProgress: options.onProgress } : {}),
    ...(options.signal ? { signal: options.signal } : {}),
  };
  const contents = await readPretrainedFiles(files, recipe.heads, loading, {
    preferWeights: readsWeightsOverGraph(backend),
    readsFolder: readsDecoderFolders(backend),
    backend,
    ...(options.dtype ? { dtype: options.dtype } : {}),
  });
  const tokenizer = createHfTokenizer(contents.tokenizerJson, contents.tokenizerConfig ?? undefined, {
    name: files.describe('tokenizer.json'),
    files: { tokenizerJson: files.describe('tokenizer.json'), tokenizerConfig: files.describe('tokenizer_config.json') },
  });
  if (Number.isFinite(contents.vocabSize) && tokenizer.vocabSize > contents.vocabSize) {
    throw new ModelLoadError(`the tokenizer has ${tokenizer.vocabSize} tokens but the model only ${contents.vocabSize}: they do not belong together`, {
      file: files.describe('tokenizer.json'),
    });
  }
  const { calibration } = contents;
  options.signal?.throwIfAborted();
  const resolved = await resolveBackend(backend, contents.source, backendCreateOptions(options));
  return {
    ...resolved,
    notes: [...resolved.notes, ...notes, ...contents.notes],
    ...(calibration ? { calibration } : {}),
    tokenizer,
    recipe,
    ...(contents.stepDetector ? { stepDetector: contents.stepDetector } : {}),
    modelFile: contents.source.kind === 'onnx' ? (contents.source as { path: string }).path : files.location,
  };
}

/**
 * A loaded folder's options for its ProcessRM: its recipe and notes, and its step-detector.json
 * and calibration.json unless the options give their own (or `null`: none).
 */
export function folderOptions(loaded: LoadedPretrained, options: Omit<ProcessRMOptions, 'recipe'>): ProcessRMOptions {
  const stepDetector = options.stepDetector === undefined ? loaded.stepDetector : options.stepDetector;
  const fromFolder = options.calibration === undefined && loaded.calibration !== undefined;
  const calibration = fromFolder ? loaded.calibration : options.calibration;
  // Said only when the folder's own calibration is the one read through (not one the options give).
  const calibrationNotes = fromFolder ? [`found ${calibrationFileName}: scores are read through it (calibration: null gives the raw scores)`] : [];
  return {
    ...options,
    recipe: loaded.recipe,
    stepDetector: stepDetector ?? null,
    calibration: calibration ?? null,
    notes: [...loaded.notes, ...calibrationNotes, ...(options.notes ?? [])],
  };
}
