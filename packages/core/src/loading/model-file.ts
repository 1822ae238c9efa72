import { readFile, stat } from 'node:fs/promises';
import { ModelLoadError } from '../errors/model-load-error.js';

/* Node only: the checks every file of a model folder goes through before it is read. */

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
 * A model folder's JSON file (`config.json`, `tokenizer.json`, ...), parsed. Anything but a
 * regular file holding valid JSON is a `ModelLoadError` naming the path and the problem.
 *
 * @example
 * const config = await readModelJsonFile('models/prm/config.json');
 */
export async function readModelJsonFile(path: string): Promise<unknown> {
  await requireRegularFile(path);
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw new ModelLoadError(`cannot be read (${(error as NodeJS.ErrnoException).code ?? String(error)})`, { file: path, cause: error });
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new ModelLoadError(`not valid JSON (${(error as Error).message})`, { file: path, cause: error });
  }
}
