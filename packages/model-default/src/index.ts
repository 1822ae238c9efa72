// The public API of @reward-lens/model-default in Node, by name (browsers get ./browser.ts).
import { fileURLToPath } from 'node:url';
// The default PRM runs on backend-tiny, a dependency: registered here so that it loads with nothing else imported.
import '@reward-lens/backend-tiny/register';
import { ProcessRM, type PretrainedOptions, type ProcessRMOptions } from '@reward-lens/core';
import { defaultPrmLoadOptions } from './default-model-info.js';

export { defaultModelCalibration, defaultModelFigures, defaultModelName, defaultModelNote, defaultModelRecipe } from './default-model-info.js';
export type { DefaultModelFigures, MatchedPairsFigures, ProcessBenchFigures } from './default-model-figures.js';
export { organismGrammarCheck } from './organism-grammar-check.js';

/** The folder holding the default PRM's files (a Hugging Face folder: config.json, model.safetensors, tokenizer.json, calibration.json). */
export const defaultModelFolder: string = fileURLToPath(new URL('../model/', import.meta.url));

export interface DefaultPrmOptions extends Omit<PretrainedOptions, 'recipe'>, Omit<ProcessRMOptions, 'recipe' | 'calibration'> {
  /** Read scores through the shipped calibration (trust `CALIBRATED`). Default true; false gives the raw probabilities. */
  calibrated?: boolean;
}

/**
 * The default PRM: a small model trained on the organism's word problems, with its calibration.
 * It finds the first wrong step of a solution written in the organism's language and is close to
 * chance on other text (`defaultModelFigures` has the measurements). It runs on backend-tiny, which
 * comes with this package and is registered when it loads; `backend` picks another registered one.
 *
 * @example
 * const prm = await loadDefaultPrm();
 * (await prm.stepScores([{ problem, steps }])).value.curves[0]; // P(correct so far) per step
 */
export async function loadDefaultPrm(options: DefaultPrmOptions = {}): Promise<ProcessRM> {
  return ProcessRM.fromPretrained(defaultModelFolder, defaultPrmLoadOptions(options));
}
