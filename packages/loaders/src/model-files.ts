import { ModelLoadError } from '@reward-lens/spec';

/**
 * Read access to the files of a model folder, wherever they are: a folder on disk (Node,
 * `modelFilesFromFolder` in `@reward-lens/core/node`), files a user picked in a browser, or bytes
 * in memory (`modelFilesFromEntries`). The loaders read only through it, so one loader serves
 * every place a model can come from. Names are paths relative to the folder, `/` between
 * folders: `config.json`, `onnx/model.onnx`.
 */
export interface ModelFiles {
  /** Names the folder in errors and notes: a path on disk, or the name of a picked folder. */
  readonly location: string;
  /** The folder's entries, sorted: its own, and those of its subfolders as `folder/name`. */
  list(): Promise<readonly string[]>;
  /** Opens one file; a missing name, a directory or anything else that is not a readable file is a ModelLoadError naming it. */
  open(name: string): Promise<ModelFile>;
  /** How errors and notes name one of its files (`models/prm/config.json`). */
  describe(name: string): string;
  /** A path on disk, for backends that read a file themselves (an ONNX graph with its external data); absent where files are in memory. */
  localPath?(name: string): string;
}

/** One opened file of a `ModelFiles`. */
export interface ModelFile {
  /** As errors name it: `ModelFiles.describe` of its name. */
  readonly name: string;
  readonly size: number;
  /**
   * Up to `length` bytes from `position` (fewer only where the file ends). With `into`, the bytes
   * are written there (it must hold `length` bytes) and a view of it is returned.
   */
  read(position: number, length: number, into?: Uint8Array): Promise<Uint8Array>;
  close(): Promise<void>;
}

/** Exactly `length` bytes from `position`; a file that ends before them is a ModelLoadError naming it. */
export async function readExactly(file: ModelFile, position: number, length: number, into?: Uint8Array): Promise<Uint8Array> {
  const bytes = await file.read(position, length, into);
  if (bytes.length !== length) {
    throw new ModelLoadError(`ends at byte ${position + bytes.length}, before the ${length} bytes its header promises at ${position}`, { file: file.name });
  }
  return bytes;
}

/** The whole file's bytes. */
export async function readWholeFile(files: ModelFiles, name: string): Promise<Uint8Array> {
  const file = await files.open(name);
  try {
    return await readExactly(file, 0, file.size);
  } finally {
    await file.close();
  }
}

/** A JSON file, parsed; invalid UTF-8 or JSON is a ModelLoadError naming the file. */
export async function readJsonFile(files: ModelFiles, name: string): Promise<unknown> {
  return parseJsonBytes(await readWholeFile(files, name), files.describe(name));
}

/** A JSON file's bytes, parsed; invalid UTF-8 or JSON is a ModelLoadError naming `file`. */
export function parseJsonBytes(bytes: Uint8Array, file: string): unknown {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch (error) {
    throw new ModelLoadError('is not valid UTF-8 text', { file, cause: error });
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new ModelLoadError(`not valid JSON (${(error as Error).message})`, { file, cause: error });
  }
}

/** The error for a file the loader needs and the folder lacks, listing what the folder holds. */
export function missingFileError(files: ModelFiles, name: string, entries: readonly string[], detail = ''): ModelLoadError {
  const holds = entries.length > 0 ? entries.join(', ') : 'nothing';
  return new ModelLoadError(`file not found${detail}; the folder holds: ${holds}`, { file: files.describe(name) });
}

/** `name`, when the folder lists it; else the missing-file error. */
export function requireEntry(files: ModelFiles, name: string, entries: readonly string[]): string {
  if (!entries.includes(name)) throw missingFileError(files, name, entries);
  return name;
}
