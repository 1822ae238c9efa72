import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import { InvalidInputError } from '@reward-lens/core';

/** Opens a file first (so a missing one fails at once, with its path), then yields its lines as they are read. */
export async function openLines(path: string): Promise<AsyncIterable<string>> {
  try {
    const handle = await open(path, 'r');
    await handle.close();
  } catch (error) {
    throw new InvalidInputError(`cannot read the file: ${error instanceof Error ? error.message : String(error)}`, { location: path, cause: error });
  }
  return (async function* () {
    const lines = createInterface({ input: createReadStream(path, { encoding: 'utf8' }), crlfDelay: Number.POSITIVE_INFINITY });
    try {
      yield* lines;
    } finally {
      lines.close();
    }
  })();
}
