import { characterTokenizerJson, decoderConfigFromHf, ModelLoadError, type HeadSpec } from '@reward-lens/core';
import { readTokenizerPath } from '@reward-lens/core/node';
import { readTextFile } from '../data/read-text-file.js';
import type { StepRecord } from '../data/step-record.js';
import type { ModelInit } from '../train-options.js';

export interface ScratchInitFiles {
  /** A Hugging Face config.json: the architecture to train from scratch. */
  config: string;
  /** A tokenizer.json (with tokenizer_config.json beside it when there is one), a folder holding them, or `characters`: the data's own characters. */
  tokenizer: string;
  /** The training records, whose characters a `characters` tokenizer covers. */
  records: readonly StepRecord[];
  /** The recipe's heads, which replace the config's. */
  heads: HeadSpec[];
}

async function readJson(path: string, what: string): Promise<unknown> {
  const text = await readTextFile(path, what);
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new ModelLoadError(`not valid JSON (${(error as Error).message})`, { file: path, cause: error });
  }
}

/**
 * What `trainProcessRewardModel` starts from when it trains from scratch, read from files: the
 * config's decoder with the recipe's heads, and its tokenizer.
 *
 * @example
 * const init = await readScratchInit({ config: 'small.json', tokenizer: 'characters', records, heads: recipe.heads });
 * await trainProcessRewardModel({ data: records, out: 'prm', init, recipe });
 */
export async function readScratchInit(files: ScratchInitFiles): Promise<ModelInit> {
  const { config } = decoderConfigFromHf(await readJson(files.config, 'the config'), files.config, files.heads);
  if (files.tokenizer === 'characters') {
    return { kind: 'scratch', config, ...characterTokenizerJson(files.records.flatMap((record) => [record.problem, ...record.steps])) };
  }
  const { tokenizerJson, tokenizerConfig } = await readTokenizerPath(files.tokenizer);
  return { kind: 'scratch', config, tokenizerJson, ...(tokenizerConfig !== null ? { tokenizerConfig } : {}) };
}
