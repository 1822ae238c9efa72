import { access } from 'node:fs/promises';
import { InvalidInputError } from '@reward-lens/core';

/** Fails fast on a missing input file, before a model loads (`undefined`: stdin, nothing to check). */
export async function checkReadable(path: string | undefined): Promise<void> {
  if (path === undefined) return;
  try {
    await access(path);
  } catch (error) {
    throw new InvalidInputError(`cannot read the file: ${error instanceof Error ? error.message : String(error)}`, { location: path, cause: error });
  }
}
