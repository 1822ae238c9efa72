import { readFile } from 'node:fs/promises';
import { extname } from 'node:path';
import { InvalidInputError } from '@reward-lens/core';
import { processBenchFromArray, processBenchFromJsonLines, type ProcessBenchRecord } from '../processbench/processbench-item.js';
import { openLines } from './read-lines.js';

async function readJson(path: string): Promise<unknown> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw new InvalidInputError(`cannot read the file: ${error instanceof Error ? error.message : String(error)}`, { location: path, cause: error });
  }
  try {
    return JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch (error) {
    throw new InvalidInputError(`invalid JSON: ${error instanceof Error ? error.message : String(error)}`, { location: path });
  }
}

/**
 * The records of a ProcessBench-format file: a `.json` file holds one JSON array (as the published
 * splits) and is read whole; anything else is JSONL, streamed line by line, so its length does not
 * bound memory. A bad record becomes an error record; a missing or malformed file throws.
 */
export async function readProcessBenchFile(path: string): Promise<AsyncIterable<ProcessBenchRecord>> {
  if (extname(path).toLowerCase() === '.json') {
    const value = await readJson(path);
    if (!Array.isArray(value))
      throw new InvalidInputError('a .json ProcessBench file must hold an array of records (use .jsonl for one record per line)', { location: path });
    return (async function* () {
      yield* processBenchFromArray(value);
    })();
  }
  return processBenchFromJsonLines(await openLines(path));
}
