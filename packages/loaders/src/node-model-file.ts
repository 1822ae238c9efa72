import { type FileHandle, open, stat } from 'node:fs/promises';
import { ModelLoadError } from '@reward-lens/spec';
import { parseJsonBytes, readExactly, type ModelFile } from './model-files.js';

/* Node only: a file on disk as a `ModelFile`, read with positioned reads (any size: readFile stops at 2 GiB). */

/**
 * Opens a file on disk for positioned reads. A directory, a FIFO, a socket or a symbolic link loop
 * is a ModelLoadError naming the path, never a hang.
 */
export async function openNodeModelFile(path: string): Promise<ModelFile> {
  await requireRegularFile(path);
  let handle: FileHandle;
  try {
    handle = await open(path, 'r');
  } catch (error) {
    throw new ModelLoadError(`cannot be opened (${(error as NodeJS.ErrnoException).code ?? String(error)})`, { file: path, cause: error });
  }
  let size: number;
  try {
    const stats = await handle.stat();
    if (!stats.isFile()) throw new ModelLoadError('is not a regular file', { file: path });
    size = stats.size;
  } catch (error) {
    await handle.close();
    throw error;
  }
  let closed = false;
  return {
    name: path,
    size,
    async read(position, length, into) {
      const buffer = into ?? new Uint8Array(length);
      let done = 0;
      while (done < length) {
        const { bytesRead } = await handle.read(buffer, done, length - done, position + done);
        if (bytesRead === 0) break;
        done += bytesRead;
      }
      return done === buffer.length ? buffer : buffer.subarray(0, done);
    },
    async close() {
      if (closed) return;
      closed = true;
      await handle.close();
    },
  };
}

/**
 * The path, when it names a regular file (following links). A directory, a FIFO (whose read
 * would block until a writer comes, so forever), a socket, a device or a link loop is a typed
 * error naming the path, never a hang.
 */
export async function requireRegularFile(path: string): Promise<string> {
  let stats: Awaited<ReturnType<typeof stat>>;
  try {
    stats = await stat(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const reason = code === 'ELOOP' ? 'is a symbolic link loop' : `cannot be read (${code ?? String(error)})`;
    throw new ModelLoadError(reason, { file: path, cause: error });
  }
  if (stats.isDirectory()) throw new ModelLoadError('is a directory, not a file', { file: path });
  if (!stats.isFile()) throw new ModelLoadError('is not a regular file (a FIFO, socket or device cannot be a model file)', { file: path });
  return path;
}

/**
 * A model folder's JSON file (`config.json`, `tokenizer.json`, ...) on disk, parsed, with the
 * checks every model file gets (`openNodeModelFile`, then `readJsonFile`'s): anything but a
 * regular file holding valid UTF-8 JSON is a `ModelLoadError` naming the path and the problem.
 *
 * @example
 * const config = await readModelJsonFile('models/prm/config.json');
 */
export async function readModelJsonFile(path: string): Promise<unknown> {
  const file = await openNodeModelFile(path);
  let bytes: Uint8Array;
  try {
    bytes = await readExactly(file, 0, file.size);
  } finally {
    await file.close();
  }
  return parseJsonBytes(bytes, path);
}
