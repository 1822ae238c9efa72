import { readJsonFile, requireEntry, type ModelFiles } from './model-files.js';

/** A folder's tokenizer files, parsed: what `createHfTokenizer` takes. */
export interface TokenizerFiles {
  tokenizerJson: unknown;
  /** `tokenizer_config.json`, or null when the folder has none. */
  tokenizerConfig: unknown | null;
}

/**
 * Reads `tokenizer.json` and, when present, `tokenizer_config.json` from a folder (on disk, picked
 * files, bytes). A missing `tokenizer.json` is a `ModelLoadError` listing what the folder holds;
 * a file that is not UTF-8 JSON is one naming the file.
 *
 * @example
 * const { tokenizerJson, tokenizerConfig } = await readTokenizerFiles(modelFilesFromEntries(picked));
 * const tokenizer = createHfTokenizer(tokenizerJson, tokenizerConfig);
 */
export async function readTokenizerFiles(files: ModelFiles, entries?: readonly string[]): Promise<TokenizerFiles> {
  const listed = entries ?? (await files.list());
  const tokenizerJson = await readJsonFile(files, requireEntry(files, 'tokenizer.json', listed));
  const tokenizerConfig = listed.includes('tokenizer_config.json') ? await readJsonFile(files, 'tokenizer_config.json') : null;
  return { tokenizerJson, tokenizerConfig };
}
