import { type FileHandle, open } from 'node:fs/promises';
import { ModelLoadError } from '../errors/model-load-error.js';
import { readFloat32LittleEndian } from './float-bytes.js';
import { widenBfloat16Into, widenFloat16Into } from './half-float.js';
import { parseSafetensorsHeader, readSafetensorsHeaderLength, type SafetensorsEntry } from './safetensors.js';

/* Node only: positioned reads of a safetensors file, so files of any size load (readFile stops at 2 GiB). */

const bytesPerElement = { F32: 4, F16: 2, BF16: 2 } as const;
/** Bytes read per call: memory beyond the float32 tensors themselves stays at about this much. */
const chunkBytes = 16 * 2 ** 20;
const platformIsLittleEndian = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;

/** A safetensors file opened for reading: its checked header, and tensors read one at a time on request. */
export interface SafetensorsFile {
  path: string;
  size: number;
  entries: ReadonlyMap<string, SafetensorsEntry>;
  metadata: Readonly<Record<string, string>>;
  /** Reads one tensor, widened to float32, with positioned reads of its byte range only. */
  read(name: string): Promise<Float32Array>;
  close(): Promise<void>;
}

/**
 * Opens a `.safetensors` file and reads only its header: 8 bytes, then the JSON. Tensors are read
 * later, each from its own byte range, so peak memory is the float32 size of the tensors asked
 * for plus one chunk, whatever the file's size. The header is checked against the file's size
 * before any tensor is allocated.
 *
 * @example
 * const file = await openSafetensorsFile('model.safetensors');
 * const norm = await file.read('model.norm.weight');
 * await file.close();
 */
export async function openSafetensorsFile(path: string, options: { chunkBytes?: number } = {}): Promise<SafetensorsFile> {
  const chunk = options.chunkBytes ?? chunkBytes;
  let handle: FileHandle;
  try {
    handle = await open(path, 'r');
  } catch (error) {
    throw new ModelLoadError(`cannot be opened (${(error as NodeJS.ErrnoException).code ?? String(error)})`, { file: path, cause: error });
  }
  try {
    const stats = await handle.stat();
    if (!stats.isFile()) throw new ModelLoadError('is not a regular file', { file: path });
    const size = stats.size;
    const first = await readExactly(handle, 0, Math.min(8, size), path);
    const headerLength = readSafetensorsHeaderLength(first, size, path);
    const header = parseSafetensorsHeader(await readExactly(handle, 8, headerLength, path), size, path);
    const dataStart = 8 + headerLength;
    let closed = false;
    return {
      path,
      size,
      entries: header.entries,
      metadata: header.metadata,
      async read(name) {
        if (closed) throw new Error(`${path} is closed`);
        const entry = header.entries.get(name);
        if (!entry) throw new ModelLoadError(`has no tensor "${name}"`, { file: path });
        return readTensor(handle, entry, dataStart, path, chunk);
      },
      async close() {
        if (closed) return;
        closed = true;
        await handle.close();
      },
    };
  } catch (error) {
    await handle.close();
    throw error;
  }
}

async function readExactly(handle: FileHandle, position: number, length: number, path: string, into?: Uint8Array): Promise<Uint8Array> {
  const buffer = into ?? new Uint8Array(length);
  let done = 0;
  while (done < length) {
    const { bytesRead } = await handle.read(buffer, done, length - done, position + done);
    if (bytesRead === 0)
      throw new ModelLoadError(`ends at byte ${position + done}, before the ${length} bytes its header promises at ${position}`, { file: path });
    done += bytesRead;
  }
  return buffer;
}

async function readTensor(handle: FileHandle, entry: SafetensorsEntry, dataStart: number, path: string, chunkBytes: number): Promise<Float32Array> {
  const width = bytesPerElement[entry.dtype];
  const [begin, end] = entry.dataOffsets;
  const count = (end - begin) / width;
  const values = new Float32Array(count);
  if (entry.dtype === 'F32' && platformIsLittleEndian) {
    // Straight into the tensor's own memory: no second copy.
    const target = new Uint8Array(values.buffer);
    for (let offset = 0; offset < target.length; offset += chunkBytes) {
      const length = Math.min(chunkBytes, target.length - offset);
      await readExactly(handle, dataStart + begin + offset, length, path, target.subarray(offset, offset + length));
    }
    return values;
  }
  const elementsPerChunk = Math.floor(chunkBytes / width);
  const chunk = new Uint8Array(Math.min(chunkBytes, end - begin));
  for (let element = 0; element < count; element += elementsPerChunk) {
    const elements = Math.min(elementsPerChunk, count - element);
    const bytes = await readExactly(handle, dataStart + begin + element * width, elements * width, path, chunk.subarray(0, elements * width));
    if (entry.dtype === 'F16') widenFloat16Into(values, element, bytes, 0, elements);
    else if (entry.dtype === 'BF16') widenBfloat16Into(values, element, bytes, 0, elements);
    else new Uint8Array(values.buffer, element * 4, elements * 4).set(new Uint8Array(readFloat32LittleEndian(bytes, 0, elements).buffer));
  }
  return values;
}
