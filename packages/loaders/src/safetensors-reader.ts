import { ModelLoadError } from '@reward-lens/spec';
import { readFloat32LittleEndian } from './float-bytes.js';
import { widenBfloat16Into, widenFloat16Into } from './half-float.js';
import { readExactly, type ModelFile } from './model-files.js';
import { parseSafetensorsHeader, readSafetensorsHeaderLength, type SafetensorsEntry } from './safetensors.js';

/* Browser-safe: a safetensors file read a range at a time, through any `ModelFile` (a file on disk, a Blob, bytes). */

const bytesPerElement = { F32: 4, F16: 2, BF16: 2 } as const;
/** Bytes read per call: memory beyond the float32 tensors themselves stays at about this much. */
const defaultChunkBytes = 16 * 2 ** 20;
const platformIsLittleEndian = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;

/** Where a loader puts a tensor's `count` float32 values: a zeroed array of exactly that length, or undefined for a new one. */
export type TensorAllocator = (count: number) => Float32Array | undefined;

/** A safetensors file opened for reading: its checked header, and tensors read one at a time on request. */
export interface SafetensorsFile {
  path: string;
  size: number;
  entries: ReadonlyMap<string, SafetensorsEntry>;
  metadata: Readonly<Record<string, string>>;
  /**
   * Reads one tensor, widened to float32, reading its byte range only, into `allocate(count)`'s
   * array when given (a weight arena a backend takes the tensors from) or a new one.
   */
  read(name: string, allocate?: TensorAllocator): Promise<Float32Array>;
  /**
   * Reads one tensor a piece of whole rows (`rowLength` values each) at a time, widened to
   * float32 into one reused buffer of about a chunk: `each(values, firstRow)` sees every piece in
   * order and must not keep `values`. A tensor is thus reduced (quantized) without ever being
   * held whole in float32.
   */
  readRows(name: string, rowLength: number, each: (values: Float32Array, firstRow: number) => void): Promise<void>;
  close(): Promise<void>;
}

/**
 * Reads a safetensors file's header (8 bytes, then the JSON) from an opened `ModelFile`, checked
 * against the file's size before any tensor is allocated. Tensors are read later, each from its
 * own byte range, so peak memory is the float32 size of the tensors asked for plus one chunk,
 * whatever the file's size. Closing the result closes the file.
 */
export async function readSafetensorsFrom(file: ModelFile, options: { chunkBytes?: number } = {}): Promise<SafetensorsFile> {
  const chunk = options.chunkBytes ?? defaultChunkBytes;
  const { name: path, size } = file;
  try {
    const first = await readExactly(file, 0, Math.min(8, size));
    const headerLength = readSafetensorsHeaderLength(first, size, path);
    const header = parseSafetensorsHeader(await readExactly(file, 8, headerLength), size, path);
    const dataStart = 8 + headerLength;
    let closed = false;
    return {
      path,
      size,
      entries: header.entries,
      metadata: header.metadata,
      async read(name, allocate) {
        if (closed) throw new Error(`${path} is closed`);
        const entry = header.entries.get(name);
        if (!entry) throw new ModelLoadError(`has no tensor "${name}"`, { file: path });
        return readTensor(file, entry, dataStart, chunk, allocate);
      },
      async readRows(name, rowLength, each) {
        if (closed) throw new Error(`${path} is closed`);
        const entry = header.entries.get(name);
        if (!entry) throw new ModelLoadError(`has no tensor "${name}"`, { file: path });
        await readTensorRows(file, entry, dataStart, chunk, rowLength, each);
      },
      async close() {
        if (closed) return;
        closed = true;
        await file.close();
      },
    };
  } catch (error) {
    await file.close();
    throw error;
  }
}

async function readTensorRows(
  file: ModelFile,
  entry: SafetensorsEntry,
  dataStart: number,
  chunkBytes: number,
  rowLength: number,
  each: (values: Float32Array, firstRow: number) => void,
): Promise<void> {
  const width = bytesPerElement[entry.dtype];
  const [begin, end] = entry.dataOffsets;
  const count = (end - begin) / width;
  if (rowLength <= 0 || count % rowLength !== 0) throw new RangeError(`a tensor of ${count} values is not rows of ${rowLength}`);
  const rowsPerPiece = Math.max(1, Math.floor(chunkBytes / (rowLength * 4)));
  const values = new Float32Array(Math.min(count, rowsPerPiece * rowLength));
  const bytes = new Uint8Array(values.length * width);
  for (let row = 0; row < count / rowLength; row += rowsPerPiece) {
    const elements = Math.min(rowsPerPiece, count / rowLength - row) * rowLength;
    const piece = await readExactly(file, dataStart + begin + row * rowLength * width, elements * width, bytes.subarray(0, elements * width));
    if (entry.dtype === 'F16') widenFloat16Into(values, 0, piece, 0, elements);
    else if (entry.dtype === 'BF16') widenBfloat16Into(values, 0, piece, 0, elements);
    else if (platformIsLittleEndian) new Uint8Array(values.buffer, 0, elements * 4).set(piece);
    else values.set(readFloat32LittleEndian(piece, 0, elements));
    each(values.subarray(0, elements), row);
  }
}

async function readTensor(
  file: ModelFile,
  entry: SafetensorsEntry,
  dataStart: number,
  chunkBytes: number,
  allocate: TensorAllocator | undefined,
): Promise<Float32Array> {
  const width = bytesPerElement[entry.dtype];
  const [begin, end] = entry.dataOffsets;
  const count = (end - begin) / width;
  const values = allocate?.(count) ?? new Float32Array(count);
  if (values.length !== count) throw new RangeError(`the allocator gave ${values.length} values for a tensor of ${count}`);
  if (entry.dtype === 'F32' && platformIsLittleEndian) {
    // Straight into the tensor's own memory: no second copy.
    const target = new Uint8Array(values.buffer, values.byteOffset, values.byteLength);
    for (let offset = 0; offset < target.length; offset += chunkBytes) {
      const length = Math.min(chunkBytes, target.length - offset);
      await readExactly(file, dataStart + begin + offset, length, target.subarray(offset, offset + length));
    }
    return values;
  }
  const elementsPerChunk = Math.floor(chunkBytes / width);
  const chunk = new Uint8Array(Math.min(chunkBytes, end - begin));
  for (let element = 0; element < count; element += elementsPerChunk) {
    const elements = Math.min(elementsPerChunk, count - element);
    const bytes = await readExactly(file, dataStart + begin + element * width, elements * width, chunk.subarray(0, elements * width));
    if (entry.dtype === 'F16') widenFloat16Into(values, element, bytes, 0, elements);
    else if (entry.dtype === 'BF16') widenBfloat16Into(values, element, bytes, 0, elements);
    else new Uint8Array(values.buffer, values.byteOffset + element * 4, elements * 4).set(new Uint8Array(readFloat32LittleEndian(bytes, 0, elements).buffer));
  }
  return values;
}
