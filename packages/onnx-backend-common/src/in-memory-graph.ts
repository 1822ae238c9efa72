import type { OnnxModelSource } from '@reward-lens/spec';
import type { OnnxBackendOptions } from './create-ort-backend.js';
import { mergeConfigs, parseOnnxConfigJson } from './onnx-model-config.js';

/**
 * The options that run an ONNX source held in memory (`source.bytes`, as `ProcessRM.fromFiles`
 * gives it): the facts of its `config.json` text under the user's `config`, and its path as the
 * name errors give it. What a file beside the graph would give on disk, given instead.
 *
 * @example
 * if (source.bytes) return createOnnxWebBackend(source.bytes, inMemoryGraphOptions(source, settings));
 */
export function inMemoryGraphOptions<Options extends OnnxBackendOptions>(source: OnnxModelSource, settings: Options): Options {
  const configFile = `config.json of ${source.path}`;
  const fromConfigJson = source.configJson === undefined ? {} : parseOnnxConfigJson(source.configJson, configFile);
  return { ...settings, config: mergeConfigs(fromConfigJson, settings.config), file: settings.file ?? source.path };
}
