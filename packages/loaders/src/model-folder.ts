import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { InvalidInputError, expectedTensorShapes, validateDecoderModel, type DecoderModel } from '@reward-lens/spec';

import { loadDecoderFiles, type DecoderFilesOptions, type DecoderFolder } from './decoder-files.js';
import { decoderConfigToHf, type DecoderConfigToHfOptions } from './hf-config.js';
import { modelFilesFromFolder } from './node-model-files.js';
import { serializeSafetensors } from './safetensors.js';

/* Node only: model folders on disk. Reading goes through `ModelFiles` and the browser-safe loader (decoder-files.ts). */

export type { DecoderFolder } from './decoder-files.js';

export interface DecoderFolderContents {
  model: DecoderModel;
  tokenizerJson: unknown;
  tokenizerConfig?: unknown;
  /** Passed to `decoderConfigToHf` (architectures, BOS and EOS ids). */
  hfConfig?: DecoderConfigToHfOptions;
  /** Written as `generation_config.json` when given (where generation stops). */
  generationConfig?: Record<string, unknown>;
}

/**
 * Loads a Hugging Face model folder from disk: `config.json`, `model.safetensors` (or the shards
 * listed in `model.safetensors.index.json`), `tokenizer.json` and, when present,
 * `tokenizer_config.json`. Nothing in the folder is executed: PyTorch pickles are refused, not
 * unpickled. The same loader reads folders from anywhere else (`loadDecoderFiles`).
 *
 * @example
 * const { model, tokenizerJson } = await loadDecoderFolder('models/prm', { heads: [{ name: 'lm', kind: 'lm' }] });
 */
export async function loadDecoderFolder(folder: string, options: DecoderFilesOptions): Promise<DecoderFolder> {
  return loadDecoderFiles(await modelFilesFromFolder(folder), options);
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
