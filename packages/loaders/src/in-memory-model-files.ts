import { InvalidInputError, ModelLoadError } from '@reward-lens/spec';

import type { ModelFile, ModelFiles } from './model-files.js';

/** A file's contents: bytes, or a `Blob` (a `File` a user picked), read a range at a time. */
export type ModelFileContents = Uint8Array | Blob;

/**
 * A model folder held in memory or picked by a user: relative paths (`config.json`,
 * `onnx/model.onnx`) to bytes or Blobs. Browser-safe. A Blob is read a range at a time, so a
 * large safetensors file is never copied whole: only the tensors the config needs are read.
 *
 * @example
 * // <input type="file" webkitdirectory>: drop the picked folder's own name from each path.
 * const files = modelFilesFromEntries([...input.files].map((file) => [file.webkitRelativePath.replace(/^[^/]*\//, ''), file]), { location: 'my-prm' });
 * const prm = await ProcessRM.fromFiles(files);
 */
export function modelFilesFromEntries(
  entries: Iterable<readonly [string, ModelFileContents]> | Readonly<Record<string, ModelFileContents>>,
  options: { location?: string } = {},
): ModelFiles {
  const location = options.location ?? '<in-memory model>';
  const contents = new Map<string, ModelFileContents>();
  const pairs = Symbol.iterator in entries ? [...(entries as Iterable<readonly [string, ModelFileContents]>)] : Object.entries(entries);
  for (const [given, value] of pairs) {
    const name = normalizeName(given);
    if (contents.has(name)) throw new InvalidInputError(`two files are named "${name}"`, { location });
    if (!(value instanceof Uint8Array) && !isBlob(value)) throw new InvalidInputError(`"${name}" is neither bytes (Uint8Array) nor a Blob`, { location });
    contents.set(name, value);
  }
  // Folders are implied by the paths under them, and listed as a folder on disk lists them.
  const folders = new Set<string>();
  for (const name of contents.keys()) {
    const parts = name.split('/');
    for (let depth = 1; depth < parts.length; depth++) folders.add(parts.slice(0, depth).join('/'));
  }
  const listing = [...new Set([...contents.keys(), ...folders])].sort();
  const describe = (name: string) => `${location}/${name}`;
  return {
    location,
    describe,
    async list() {
      return listing;
    },
    async open(name) {
      const value = contents.get(name);
      if (value === undefined) {
        throw new ModelLoadError(folders.has(name) ? 'is a directory, not a file' : 'file not found', { file: describe(name) });
      }
      return value instanceof Uint8Array ? bytesFile(describe(name), value) : blobFile(describe(name), value);
    },
  };
}

function isBlob(value: unknown): value is Blob {
  return typeof Blob !== 'undefined' && value instanceof Blob;
}

/** `/` between folders, no leading `./` or `/`; a path that leaves the folder (`..`) or names nothing is refused. */
function normalizeName(given: string): string {
  const parts = given
    .replace(/\\/g, '/')
    .split('/')
    .filter((part) => part !== '' && part !== '.');
  if (parts.length === 0 || parts.includes('..')) throw new InvalidInputError(`${JSON.stringify(given)} is not a path inside the model folder`);
  return parts.join('/');
}

function bytesFile(name: string, bytes: Uint8Array): ModelFile {
  return {
    name,
    size: bytes.length,
    async read(position, length, into) {
      const view = bytes.subarray(position, Math.min(bytes.length, position + length));
      if (!into) return view;
      into.set(view);
      return into.subarray(0, view.length);
    },
    async close() {},
  };
}

function blobFile(name: string, blob: Blob): ModelFile {
  return {
    name,
    size: blob.size,
    async read(position, length, into) {
      let bytes: Uint8Array;
      try {
        bytes = new Uint8Array(await blob.slice(position, Math.min(blob.size, position + length)).arrayBuffer());
      } catch (error) {
        throw new ModelLoadError(`cannot be read (${error instanceof Error ? error.message : String(error)})`, { file: name, cause: error });
      }
      if (!into) return bytes;
      into.set(bytes);
      return into.subarray(0, bytes.length);
    },
    async close() {},
  };
}
