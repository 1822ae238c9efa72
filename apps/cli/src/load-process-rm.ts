import {
  InvalidInputError,
  type LoadProgress,
  type WeightDtypeV1,
  ModelLoadError,
  ProcessRM,
  recipePresets,
  resolveRecipe,
  type StepDelimiter,
} from '@reward-lens/core';
import { defaultModelName, defaultModelRecipe, loadDefaultPrm } from '@reward-lens/model-default';
import { requireBackendPackage } from './register-backends.js';
import { readStepDetectorFile, type StepDetectionChoice } from './step-detection-options.js';

export interface ModelSettings extends StepDetectionChoice {
  /** A Hugging Face-style model folder; absent: the default PRM, or the seeded tiny model when `seed` is set. */
  model?: string;
  /** A preset name (`reward-lens recipes`); absent: inferred from the folder's config.json, or the model's own. */
  recipe?: string;
  backend: string;
  /** Seed of the seeded tiny model's random weights: when set (and no `model`), that model is loaded instead of the default PRM. */
  seed?: number;
  /** CPU threads to compute on (backend-tiny's workers, onnxruntime's intra-op threads); absent: every core. */
  threads?: number;
  /** How the backend holds the weights (`--dtype`); absent: fp32. */
  dtype?: WeightDtypeV1;
  delimiter?: StepDelimiter;
  batchSize?: number;
  truncation?: 'none' | 'left';
  /** Called as a model folder's weights are read (the progress line on a terminal). */
  onProgress?: (progress: LoadProgress) => void;
}

/**
 * A folder's backend is chosen by `auto` resolution; the default PRM and the seeded tiny model run
 * on backend-tiny, where they were trained, calibrated and measured, unless `--backend` names another.
 */
export function defaultBackend(model: string | undefined): string {
  return model !== undefined ? 'auto' : 'tiny';
}

/** The model the settings name, in words, for summaries and reports. */
export function modelDescription(settings: Pick<ModelSettings, 'model' | 'seed'>): string {
  if (settings.model !== undefined) return settings.model;
  if (settings.seed !== undefined) return `the seeded tiny model (seed ${settings.seed}, random weights: its scores carry no meaning)`;
  return `the default PRM (${defaultModelName}, trained on organism word problems)`;
}

/** The names `--recipe` takes, for its help and its errors. */
export function recipeNames(): string[] {
  return Object.keys(recipePresets);
}

/**
 * Core asks an API caller for `{ recipe: ... }`; a command-line user needs the flag and the names.
 * When core's wording changes, its own message still goes through, with the hint added.
 */
function withRecipeHint(error: ModelLoadError): ModelLoadError {
  const message = error.message.replace(/;?\s*pass a recipe.*$/, '');
  return new ModelLoadError(`${message}; pass --recipe <name>, one of: ${recipeNames().join(', ')} (reward-lens recipes describes them)`, { cause: error });
}

/** The PRM the command line asked for: a model folder with its recipe, the seeded tiny PRM, or the default PRM. */
export async function loadProcessRM(settings: ModelSettings): Promise<ProcessRM> {
  await requireBackendPackage(settings.backend);
  const common = {
    backend: settings.backend,
    ...(settings.threads !== undefined ? { threads: settings.threads } : {}),
    ...(settings.dtype !== undefined ? { dtype: settings.dtype } : {}),
    ...(settings.delimiter !== undefined ? { delimiter: settings.delimiter } : {}),
    ...(settings.batchSize !== undefined ? { batchSize: settings.batchSize } : {}),
    ...(settings.truncation !== undefined ? { truncation: settings.truncation } : {}),
    ...(settings.stepDetection !== undefined ? { stepDetection: settings.stepDetection } : {}),
    ...(settings.stepDetectorFile !== undefined ? { stepDetector: await readStepDetectorFile(settings.stepDetectorFile) } : {}),
  };
  if (settings.model === undefined && settings.seed !== undefined) {
    return ProcessRM.fromTiny({ ...common, seed: settings.seed, ...(settings.recipe !== undefined ? { recipe: resolveRecipe(settings.recipe) } : {}) });
  }
  if (settings.model === undefined) {
    if (settings.recipe !== undefined && settings.recipe !== defaultModelRecipe) {
      throw new InvalidInputError(
        `the default PRM is read with the recipe it was trained for (${defaultModelRecipe}), not ${JSON.stringify(settings.recipe)}; --recipe applies to --model <folder> or the seeded model (--seed)`,
      );
    }
    return loadDefaultPrm(common);
  }
  try {
    return await ProcessRM.fromPretrained(settings.model, {
      ...common,
      ...(settings.recipe !== undefined ? { recipe: settings.recipe } : {}),
      ...(settings.onProgress ? { onProgress: settings.onProgress } : {}),
    });
  } catch (error) {
    if (settings.recipe === undefined && ModelLoadError.isInstance(error) && /pass a recipe/.test(error.message)) throw withRecipeHint(error);
    throw error;
  }
}
