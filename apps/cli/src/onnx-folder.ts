import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { ModelLoadError } from '@reward-lens/core';
import { readModelJsonFile as readJson } from '@reward-lens/core/node';

/** The ONNX graph a model folder holds, where core's `fromPretrained` looks for one (see `findOnnxGraph`). */
export { findOnnxGraph } from '@reward-lens/core/node';

/** The tokenizer files of a folder: `tokenizer.json`, and `tokenizer_config.json` when present. */
export async function readTokenizerFiles(folder: string): Promise<{ tokenizerJson: unknown; tokenizerConfig: unknown }> {
  const entries = (await readdir(folder)).sort();
  if (!entries.includes('tokenizer.json')) {
    throw new ModelLoadError(`file not found; the folder holds: ${entries.join(', ') || 'nothing'}`, { file: join(folder, 'tokenizer.json') });
  }
  const tokenizerJson = await readJson(join(folder, 'tokenizer.json'));
  const tokenizerConfig = entries.includes('tokenizer_config.json') ? await readJson(join(folder, 'tokenizer_config.json')) : undefined;
  return { tokenizerJson, tokenizerConfig };
}
