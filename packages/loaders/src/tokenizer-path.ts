import { stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { readModelJsonFile } from './node-model-file.js';
import { modelFilesFromFolder } from './node-model-files.js';
import { readTokenizerFiles, type TokenizerFiles } from './tokenizer-files.js';

/**
 * The tokenizer files at a path on disk: a folder holding `tokenizer.json` (and, when present,
 * `tokenizer_config.json`), or a tokenizer JSON file itself, with the `tokenizer_config.json`
 * beside it when there is one. Errors are `ModelLoadError`s naming the file.
 *
 * @example
 * const { tokenizerJson, tokenizerConfig } = await readTokenizerPath('models/prm');
 */
export async function readTokenizerPath(path: string): Promise<TokenizerFiles> {
  const isFolder = (await stat(path).catch(() => undefined))?.isDirectory() === true;
  if (isFolder) return readTokenizerFiles(await modelFilesFromFolder(path));
  const tokenizerJson = await readModelJsonFile(path);
  const configPath = join(dirname(path), 'tokenizer_config.json');
  const hasConfig = (await stat(configPath).catch(() => undefined))?.isFile() === true;
  return { tokenizerJson, tokenizerConfig: hasConfig ? await readModelJsonFile(configPath) : null };
}
