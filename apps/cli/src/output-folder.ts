import { readdir } from 'node:fs/promises';
import { InvalidInputError } from '@reward-lens/core';

/**
 * Writing over a model folder by accident would lose it: a folder with files in it needs --force.
 * A folder that does not exist yet is fine (the writer creates it).
 */
export async function checkOutputFolder(folder: string, force: boolean): Promise<void> {
  let entries: string[];
  try {
    entries = await readdir(folder);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return;
    throw new InvalidInputError(code === 'ENOTDIR' ? 'is a file, not a folder' : `cannot be listed (${code ?? String(error)})`, {
      location: folder,
      cause: error,
    });
  }
  if (entries.length > 0 && !force) {
    throw new InvalidInputError(`the folder is not empty (it holds ${entries.sort().join(', ')}); pass --force to write into it`, { location: folder });
  }
}
