// The public API of @reward-lens/model-default in browsers and bundles without Node, by name.
// The default PRM runs on backend-tiny, a dependency: registered here so that it loads with nothing else imported.
import '@reward-lens/backend-tiny/register';
import { ModelLoadError, modelFilesFromEntries, ProcessRM, type PretrainedOptions, type ProcessRMOptions } from '@reward-lens/core';
import config from '../model/config.json' with { type: 'json' };
import tokenizerConfig from '../model/tokenizer_config.json' with { type: 'json' };
import stepDetector from '../model/step-detector.json' with { type: 'json' };
import tokenizer from '../model/tokenizer.json' with { type: 'json' };
import { defaultModelName, defaultPrmLoadOptions } from './default-model-info.js';

export { defaultModelCalibration, defaultModelFigures, defaultModelName, defaultModelNote, defaultModelRecipe } from './default-model-info.js';
export type { DefaultModelFigures, MatchedPairsFigures, ProcessBenchFigures } from './default-model-figures.js';
export { organismGrammarCheck } from './organism-grammar-check.js';

/**
 * Where the weights are fetched from: `model/model.safetensors` beside this module, which bundlers
 * that understand `new URL(..., import.meta.url)` (Vite, webpack 5, Parcel) copy into the build.
 */
export const defaultModelWeightsUrl: URL = new URL('../model/model.safetensors', import.meta.url);

export interface DefaultPrmOptions extends Omit<PretrainedOptions, 'recipe'>, Omit<ProcessRMOptions, 'recipe' | 'calibration'> {
  /** Read scores through the shipped calibration (trust `CALIBRATED`). Default true; false gives the raw probabilities. */
  calibrated?: boolean;
  /** The weights file: its bytes or a Blob, or the URL to fetch it from (default `defaultModelWeightsUrl`). */
  weights?: Uint8Array | Blob | URL | string;
  /** How the weights are fetched. Default: the global `fetch`. */
  fetch?: (input: URL | string) => Promise<Response>;
}

const encoder = new TextEncoder();
const json = (value: unknown) => encoder.encode(JSON.stringify(value));

async function fetchWeights(url: URL | string, fetcher: (input: URL | string) => Promise<Response>): Promise<Uint8Array> {
  let response: Response;
  try {
    response = await fetcher(url);
  } catch (error) {
    throw new ModelLoadError(`the default PRM's weights could not be fetched (${(error as Error).message})`, { file: String(url), cause: error });
  }
  if (!response.ok) throw new ModelLoadError(`the default PRM's weights could not be fetched: HTTP ${response.status}`, { file: String(url) });
  return new Uint8Array(await response.arrayBuffer());
}

/**
 * The default PRM, in a page: a small model trained on the organism's word problems, with its
 * calibration (see the Node entry for what it is and is not good for). Its config, tokenizer and
 * step detector come with this module; the weights (a few MB) are fetched. It runs on backend-tiny,
 * which comes with this package and is registered when it loads.
 *
 * @example
 * const prm = await loadDefaultPrm();
 */
export async function loadDefaultPrm(options: DefaultPrmOptions = {}): Promise<ProcessRM> {
  const { weights, fetch: fetcher, ...rest } = options;
  const held = weights instanceof Uint8Array || (typeof Blob !== 'undefined' && weights instanceof Blob);
  const bytes = held
    ? (weights as Uint8Array | Blob)
    : await fetchWeights((weights as URL | string | undefined) ?? defaultModelWeightsUrl, fetcher ?? ((input) => fetch(input)));
  const files = modelFilesFromEntries(
    {
      'config.json': json(config),
      'tokenizer.json': json(tokenizer),
      'tokenizer_config.json': json(tokenizerConfig),
      'step-detector.json': json(stepDetector),
      'model.safetensors': bytes,
    },
    { location: defaultModelName },
  );
  return ProcessRM.fromFiles(files, defaultPrmLoadOptions(rest));
}
