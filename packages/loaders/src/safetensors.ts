import { InvalidInputError, ModelLoadError } from '@reward-lens/spec';

import { readFloat32LittleEndian, writeFloat32LittleEndian } from './float-bytes.js';
import { readBfloat16LittleEndian, readFloat16LittleEndian } from './half-float.js';

/** The safetensors dtypes reward-lens widens to float32. */
export type SafetensorsDtype = 'F32' | 'F16' | 'BF16';

export interface SafetensorsTensor {
  /** The dtype stored in the file; `data` is always float32. */
  dtype: SafetensorsDtype;
  shape: number[];
  data: Float32Array;
}

/** One header entry, before any data is read. */
export interface SafetensorsEntry {
  dtype: SafetensorsDtype;
  shape: number[];
  /** Byte range inside the data section (after the header). */
  dataOffsets: [begin: number, end: number];
}

const bytesPerElement: Record<SafetensorsDtype, number> = { F32: 4, F16: 2, BF16: 2 };
/** The reference implementation refuses headers above 100 MB; a larger length means a corrupt file. */
const maxHeaderLength = 100_000_000;

interface ParsedHeader {
  entries: Map<string, SafetensorsEntry>;
  metadata: Record<string, string>;
  dataStart: number;
}

/**
 * Reads a `.safetensors` file and widens every tensor to float32.
 * `fileName` names the file in errors. `include`, when given, skips the tensors it returns false for
 * (their header entries are still checked).
 *
 * @example
 * const tensors = parseSafetensors(await readFile(path), path);
 * tensors.get('model.norm.weight')?.data; // Float32Array
 */
export function parseSafetensors(bytes: Uint8Array, fileName: string, options: { include?: (name: string) => boolean } = {}): Map<string, SafetensorsTensor> {
  const header = parseHeader(bytes, fileName);
  const tensors = new Map<string, SafetensorsTensor>();
  for (const [name, entry] of header.entries) {
    if (options.include && !options.include(name)) continue;
    const start = header.dataStart + entry.dataOffsets[0];
    const count = (entry.dataOffsets[1] - entry.dataOffsets[0]) / bytesPerElement[entry.dtype];
    const data =
      entry.dtype === 'F32'
        ? readFloat32LittleEndian(bytes, start, count)
        : entry.dtype === 'F16'
          ? readFloat16LittleEndian(bytes, start, count)
          : readBfloat16LittleEndian(bytes, start, count);
    tensors.set(name, { dtype: entry.dtype, shape: entry.shape, data });
  }
  return tensors;
}

/** The header's tensor entries, checked, without reading any data. */
export function parseSafetensorsEntries(bytes: Uint8Array, fileName: string): Map<string, SafetensorsEntry> {
  return parseHeader(bytes, fileName).entries;
}

/** The header's `__metadata__` (string to string); empty when the file has none. */
export function parseSafetensorsMetadata(bytes: Uint8Array, fileName: string): Record<string, string> {
  return parseHeader(bytes, fileName).metadata;
}

function parseHeader(bytes: Uint8Array, fileName: string): ParsedHeader {
  const fail = (message: string): never => {
    throw new ModelLoadError(`not a valid safetensors file: ${message}`, { file: fileName });
  };
  if (bytes.length < 8) fail(`${bytes.length} bytes is shorter than the 8-byte header length`);
  const headerLength = readSafetensorsHeaderLength(bytes.subarray(0, 8), bytes.length, fileName);
  const parsed = parseSafetensorsHeader(bytes.subarray(8, 8 + headerLength), bytes.length, fileName);
  return { entries: parsed.entries, metadata: parsed.metadata, dataStart: 8 + headerLength };
}

/**
 * The header length a file's first 8 bytes give, checked against the reference implementation's
 * 100 MB limit and the file's size. Used by readers that read the header on its own.
 */
export function readSafetensorsHeaderLength(first8Bytes: Uint8Array, fileSize: number, fileName: string): number {
  const fail = (message: string): never => {
    throw new ModelLoadError(`not a valid safetensors file: ${message}`, { file: fileName });
  };
  if (first8Bytes.length < 8) fail(`${fileSize} bytes is shorter than the 8-byte header length`);
  const exact = new DataView(first8Bytes.buffer, first8Bytes.byteOffset, 8).getBigUint64(0, true);
  // Said as the exact 64-bit integer: a length past 2^53 would print rounded as a Number.
  if (exact > BigInt(maxHeaderLength)) fail(`header length ${exact} is above the 100 MB limit`);
  const headerLength = Number(exact);
  if (8 + headerLength > fileSize) fail(`header length ${headerLength} runs past the end of the ${fileSize}-byte file`);
  return headerLength;
}

/**
 * The checked entries and metadata of a header's JSON bytes, for a file of `fileSize` bytes: every
 * tensor's byte range must lie in the data section and match its dtype and shape, before any data
 * is read.
 */
export function parseSafetensorsHeader(
  headerBytes: Uint8Array,
  fileSize: number,
  fileName: string,
): { entries: Map<string, SafetensorsEntry>; metadata: Record<string, string> } {
  const fail = (message: string): never => {
    throw new ModelLoadError(`not a valid safetensors file: ${message}`, { file: fileName });
  };
  let json: unknown;
  try {
    json = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(headerBytes));
  } catch (error) {
    throw new ModelLoadError(`not a valid safetensors file: the header is not JSON (${(error as Error).message})`, { file: fileName, cause: error });
  }
  if (typeof json !== 'object' || json === null || Array.isArray(json)) fail('the header is not a JSON object');
  const dataLength = fileSize - 8 - headerBytes.length;
  const entries = new Map<string, SafetensorsEntry>();
  let metadata: Record<string, string> = {};
  for (const [name, value] of Object.entries(json as Record<string, unknown>)) {
    if (name === '__metadata__') {
      metadata = parseMetadata(value, fail);
      continue;
    }
    entries.set(name, parseEntry(name, value, dataLength, fail));
  }
  checkNoOverlap(entries, fail);
  return { entries, metadata };
}

function parseMetadata(value: unknown, fail: (message: string) => never): Record<string, string> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) fail('__metadata__ is not an object');
  for (const [key, item] of Object.entries(value as Record<string, unknown>)) {
    if (typeof item !== 'string') fail(`__metadata__ "${key}" is not a string`);
  }
  return { ...(value as Record<string, string>) };
}

function parseEntry(name: string, value: unknown, dataLength: number, fail: (message: string) => never): SafetensorsEntry {
  if (typeof value !== 'object' || value === null) fail(`tensor "${name}" has no header entry object`);
  const { dtype, shape, data_offsets: offsets } = value as Record<string, unknown>;
  if (typeof dtype !== 'string') fail(`tensor "${name}" has no dtype`);
  if (!(dtype === 'F32' || dtype === 'F16' || dtype === 'BF16')) {
    fail(`tensor "${name}" has dtype ${String(dtype)}, which reward-lens does not load (F32, F16 and BF16 are supported)`);
  }
  const isCount = (item: unknown): item is number => Number.isSafeInteger(item) && (item as number) >= 0;
  if (!Array.isArray(shape) || !shape.every(isCount)) fail(`tensor "${name}" has no valid shape`);
  if (!Array.isArray(offsets) || offsets.length !== 2 || !offsets.every(isCount)) fail(`tensor "${name}" has no valid data_offsets`);
  const [begin, end] = offsets as [number, number];
  if (begin > end || end > dataLength) {
    fail(`tensor "${name}" data_offsets [${begin}, ${end}] fall outside the ${dataLength}-byte data section`);
  }
  const elements = (shape as number[]).reduce((product, dimension) => product * dimension, 1);
  const expectedBytes = elements * bytesPerElement[dtype as SafetensorsDtype];
  if (end - begin !== expectedBytes) {
    fail(`tensor "${name}" spans ${end - begin} bytes, but ${dtype} [${(shape as number[]).join(', ')}] needs ${expectedBytes}`);
  }
  return { dtype: dtype as SafetensorsDtype, shape: [...(shape as number[])], dataOffsets: [begin, end] };
}

function checkNoOverlap(entries: Map<string, SafetensorsEntry>, fail: (message: string) => never): void {
  const sorted = [...entries].filter(([, entry]) => entry.dataOffsets[1] > entry.dataOffsets[0]);
  sorted.sort(([, left], [, right]) => left.dataOffsets[0] - right.dataOffsets[0]);
  for (let index = 1; index < sorted.length; index++) {
    const [previousName, previous] = sorted[index - 1]!;
    const [name, entry] = sorted[index]!;
    if (entry.dataOffsets[0] < previous.dataOffsets[1]) fail(`tensors "${previousName}" and "${name}" overlap`);
  }
}

/**
 * Writes float32 tensors as a `.safetensors` file the way the reference implementation does:
 * tensors in name order, the JSON header padded with spaces to a multiple of 8 bytes.
 * Pass `metadata: { format: 'pt' }` for files that transformers will load.
 */
export function serializeSafetensors(
  tensors: ReadonlyMap<string, { shape: readonly number[]; data: Float32Array }>,
  metadata?: Record<string, string>,
): Uint8Array {
  const names = [...tensors.keys()].sort((left, right) => (left < right ? -1 : left > right ? 1 : 0));
  const header: Record<string, unknown> = {};
  if (metadata && Object.keys(metadata).length > 0) header.__metadata__ = metadata;
  let offset = 0;
  for (const name of names) {
    if (name === '__metadata__') throw new InvalidInputError('"__metadata__" is reserved and cannot name a tensor');
    const { shape, data } = tensors.get(name)!;
    const elements = shape.reduce((product, dimension) => product * dimension, 1);
    if (data.length !== elements) {
      throw new InvalidInputError(`tensor "${name}" has ${data.length} values, shape [${shape.join(', ')}] needs ${elements}`);
    }
    header[name] = { dtype: 'F32', shape: [...shape], data_offsets: [offset, offset + data.length * 4] };
    offset += data.length * 4;
  }
  const json = new TextEncoder().encode(JSON.stringify(header));
  const headerLength = Math.ceil(json.length / 8) * 8;
  const bytes = new Uint8Array(8 + headerLength + offset);
  new DataView(bytes.buffer).setBigUint64(0, BigInt(headerLength), true);
  bytes.set(json, 8);
  bytes.fill(0x20, 8 + json.length, 8 + headerLength);
  let position = 8 + headerLength;
  for (const name of names) {
    const { data } = tensors.get(name)!;
    writeFloat32LittleEndian(bytes, position, data);
    position += data.length * 4;
  }
  return bytes;
}
