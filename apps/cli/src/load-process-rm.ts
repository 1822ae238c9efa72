import { ModelLoadError, ProcessRM, recipePresets, resolveRecipe, type StepDelimiter } from '@reward-lens/core';
import { requireBackendPackage } from './register-backends.js';
import { readStepDetectorFile, type StepDetectionChoice } from './step-detection-options.js';

export interface ModelSettings extends StepDetectionChoice {
  /** A Hugging Face-style model folder; absent: the seeded tiny model. */
  model?: string;
  /** A preset name (`reward-lens recipes`); absent: inferred from the folder's config.json, or the tiny model's own. */
  recipe?: string;
  backend: string;
  /** Seed of the tiny model's weights; unused with a model folder. */
  seed: number;
  delimiter?: StepDelimiter;
  batchSize?: number;
  truncation?: 'none' | 'left';
}

/** A folder's backend is chosen by `auto` resolution; the tiny model runs on the backend it was written for. */
export function defaultBackend(model: string | undefined): string {
  return model !== undefined ? 'auto' : 'tiny';
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

/** The PRM the command line asked for: a model folder with its recipe, or the seeded tiny PRM. */
export async function loadProcessRM(settings: ModelSettings): Promise<ProcessRM> {
  await requireBackendPackage(settings.backend);
  const common = {
    backend: settings.backend,
    ...(settings.delimiter !== undefined ? { delimiter: settings.delimiter } : {}),
    ...(settings.batchSize !== undefined ? { batchSize: settings.batchSize } : {}),
    ...(settings.truncation !== undefined ? { truncation: settings.truncation } : {}),
    ...(settings.stepDetection !== undefined ? { stepDetection: settings.stepDetection } : {}),
    ...(settings.stepDetectorFile !== undefined ? { stepDetector: await readStepDetectorFile(settings.stepDetectorFile) } : {}),
  };
  if (settings.model === undefined) {
    return ProcessRM.fromTiny({ ...common, seed: settings.seed, ...(settings.recipe !== undefined ? { recipe: resolveRecipe(settings.recipe) } : {}) });
  }
  try {
    return await ProcessRM.fromPretrained(settings.model, { ...common, ...(settings.recipe !== undefined ? { recipe: settings.recipe } : {}) });
  } catch (error) {
    if (settings.recipe === undefined && ModelLoadError.isInstance(error) && /pass a recipe/.test(error.message)) throw withRecipeHint(error);
    throw error;
  }
}
