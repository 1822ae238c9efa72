import type { Dirent } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { ModelLoadError } from '@reward-lens/spec';
import type { ModelFiles } from './model-files.js';
import { openNodeModelFile } from './node-model-file.js';

/* Node only: a model folder on disk as `ModelFiles`, for the loaders every other source shares. */

/**
 * A model folder on disk. Its listing is the folder's entries and those of its subfolders one
 * level down (the hub layout's `onnx/`); a missing folder, or a path that is not one, is a
 * ModelLoadError naming it.
 *
 * @example
 * const prm = await ProcessRM.fromFiles(await modelFilesFromFolder('models/prm'));
 */
export async function modelFilesFromFolder(folder: string): Promise<ModelFiles> {
  const listing = await listFolder(folder);
  return {
    location: folder,
    describe: (name) => join(folder, name),
    localPath: (name) => join(folder, name),
    async list() {
      return listing;
    },
    async open(name) {
      return openNodeModelFile(join(folder, name));
    },
  };
}

async function listFolder(folder: string): Promise<string[]> {
  let entries: Dirent[];
  try {
    entries = await readdir(folder, { withFileTypes: true });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const reason = code === 'ENOENT' ? 'folder not found' : code === 'ENOTDIR' ? 'not a folder' : `cannot list the folder (${code ?? String(error)})`;
    throw new ModelLoadError(reason, { file: folder, cause: error });
  }
  const names: string[] = [];
  for (const entry of entries) {
    names.push(entry.name);
    // One level down, for `onnx/model.onnx`; hidden folders (a clone's `.git`) are not looked into.
    if (entry.isDirectory() && !entry.name.startsWith('.')) {
      const inner = await readdir(join(folder, entry.name)).catch((): string[] => []);
      for (const name of inner) names.push(`${entry.name}/${name}`);
    }
  }
  return names.sort();
}
