import { readFile } from 'node:fs/promises';
import { InvalidInputError } from '@reward-lens/core';

/** A file's text; one that cannot be read is an `InvalidInputError` naming the file and saying what it was for (`what`: "the data"). */
export async function readTextFile(path: string, what: string): Promise<string> {
  try {
    return await readFile(path, 'utf8');
  } catch (error) {
    throw new InvalidInputError(`${what} cannot be read (${(error as NodeJS.ErrnoException).code ?? String(error)})`, { location: path, cause: error });
  }
}
