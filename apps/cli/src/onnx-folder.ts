import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ModelLoadError } from '@reward-lens/core';

/** The ONNX graph a model folder holds, where core's `fromPretrained` looks for one (see `findOnnxGraph`). */
export { findOnnxGraph } from '@reward-lens/core/node';

async function readJson(path: string): Promise<unknown> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw new ModelLoadError(`cannot be read (${(error as NodeJS.ErrnoException).code ?? String(error)})`, { file: path, cause: error });
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new ModelLoadError(`not valid JSON (${(error as Error).message})`, { file: path, cause: error });
  }
}

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
