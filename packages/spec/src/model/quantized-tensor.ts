import { bfloat16ToFloat32Bits, float16ToFloat32Bits, toBfloat16Bits, toFloat16Bits } from './half-precision.js';

/** The formats a weight matrix is held in with fewer bits than float32: `WeightDtypeV1` but `fp32`. */
export type QuantizedFormatV1 = 'q8' | 'q4' | 'bf16' | 'fp16';

/** Weights per `q4` block: one float scale each, as GGUF's Q4_0 and onnxruntime's `MatMulNBits` (block_size 32) have it. */
export const Q4_BLOCK = 32;

/**
 * A `[rows, columns]` weight matrix (PyTorch's `[out, in]`) held as integers with float scales,
 * in one byte region: the scales first, then the integers, at a 16-byte aligned offset.
 *
 * - `q8`: one scale per row (per output channel), `w ≈ scale · q` with `q` in `-127..127`
 *   (symmetric, round to nearest): `columns` bytes per row.
 * - `q4`: one scale per block of 32 consecutive weights of a row, `w ≈ scale · q` with `q` in
 *   `-8..7` stored as `q + 8` in 4 bits: 16 bytes per block, byte `j` holding weight `j` in its
 *   low nibble and weight `j + 16` in its high one (GGUF's Q4_0 layout). `columns` is a multiple of 32.
 *
 * - `bf16`, `fp16`: each weight its nearest 16-bit float (round to nearest, ties to even), no
 *   scales: 2 bytes per weight.
 *
 * Each weight is dequantized to the float32 `fround(scale · q)` (or the 16-bit float's exact
 * float32 value) exactly, whatever reads it.
 * Loaders make these as they read a folder (`dtype` of `loadDecoderFiles`) and backends that
 * hold the dtype (`BackendRegistration.dtypes`) take them as they are (`DecoderModel.quantized`).
 */
export interface QuantizedTensorV1 {
  readonly format: QuantizedFormatV1;
  readonly rows: number;
  readonly columns: number;
  /** The whole region: what is uploaded or shared. */
  readonly bytes: Uint8Array;
  /** `rows` scales (q8) or `rows · columns / 32` (q4), row-major; none for bf16 and fp16. */
  readonly scales: Float32Array;
  /** The integers: `Int8Array` for q8, packed nibbles (`Uint8Array`) for q4, the 16-bit floats' bits (`Uint16Array`) for bf16 and fp16. */
  readonly data: Int8Array | Uint8Array | Uint16Array;
  /** Byte offset of `data` within `bytes`. */
  readonly dataOffset: number;
}

/** Whether a `[rows, columns]` matrix can be held as `format` (q4 needs whole blocks of 32). */
export function quantizable(format: QuantizedFormatV1, columns: number): boolean {
  return format !== 'q4' || columns % Q4_BLOCK === 0;
}

const alignUp = (bytes: number) => Math.ceil(bytes / 16) * 16;

function scaleCount(format: QuantizedFormatV1, rows: number, columns: number): number {
  return format === 'q8' ? rows : format === 'q4' ? (rows * columns) / Q4_BLOCK : 0;
}

function dataBytesOf(format: QuantizedFormatV1, rows: number, columns: number): number {
  return format === 'q8' ? rows * columns : format === 'q4' ? (rows * columns) / 2 : rows * columns * 2;
}

/** Bytes of the region a `[rows, columns]` matrix takes as `format` (a multiple of 16). */
export function quantizedBytes(format: QuantizedFormatV1, rows: number, columns: number): number {
  return alignUp(scaleCount(format, rows, columns) * 4) + alignUp(dataBytesOf(format, rows, columns));
}

/** The matrix over a region laid out as `quantizedBytes` says (`byteOffset` 16-byte aligned): views, no copy. */
export function quantizedTensorOver(buffer: ArrayBufferLike, byteOffset: number, format: QuantizedFormatV1, rows: number, columns: number): QuantizedTensorV1 {
  return quantizedTensorIn(new Uint8Array(buffer, byteOffset, quantizedBytes(format, rows, columns)), format, rows, columns);
}

/** The matrix over `bytes` itself (its `bytes` is that very view, 16-byte aligned, `quantizedBytes` long): views, no copy. */
export function quantizedTensorIn(bytes: Uint8Array, format: QuantizedFormatV1, rows: number, columns: number): QuantizedTensorV1 {
  const total = quantizedBytes(format, rows, columns);
  if (bytes.byteLength !== total) throw new RangeError(`a ${format} [${rows}, ${columns}] tensor takes ${total} bytes, got ${bytes.byteLength}`);
  const { buffer, byteOffset } = bytes;
  const scales = scaleCount(format, rows, columns);
  const dataOffset = alignUp(scales * 4);
  const dataBytes = dataBytesOf(format, rows, columns);
  return {
    format,
    rows,
    columns,
    bytes,
    scales: new Float32Array(buffer, byteOffset, scales),
    data:
      format === 'q8'
        ? new Int8Array(buffer, byteOffset + dataOffset, dataBytes)
        : format === 'q4'
          ? new Uint8Array(buffer, byteOffset + dataOffset, dataBytes)
          : new Uint16Array(buffer, byteOffset + dataOffset, dataBytes / 2),
    dataOffset,
  };
}

/**
 * Quantizes `source` (whole rows of `[rows, columns]`, row-major: all of them, or rows from
 * `firstRow` on, so that a loader can quantize a tensor a piece at a time) into `target`: symmetric, the scale the
 * largest magnitude over the integer range (127 for q8, 7 for q4), each weight rounded to the
 * nearest integer. A row or block of zeros gets scale 0. Throws on a non-finite weight.
 */
export function quantizeInto(target: QuantizedTensorV1, source: Float32Array, firstRow = 0): void {
  const { format, rows, columns } = target;
  const count = source.length / columns;
  if (!Number.isInteger(count) || firstRow < 0 || firstRow + count > rows || (firstRow === 0 && count === 0 && rows > 0)) {
    throw new RangeError(`expected whole rows of ${columns} weights within ${rows} rows from row ${firstRow}, got ${source.length} weights`);
  }
  // Every group (a row for q8, 32 weights for q4) lies in whole rows: rows can come a piece at a time.
  // One function per format, so that each sees one kind of typed array (a loop over several is several times slower).
  const offset = firstRow * columns;
  if (format === 'q8') quantizeQ8(target.data as Int8Array, target.scales, source, offset, columns);
  else if (format === 'q4') quantizeQ4(target.data as Uint8Array, target.scales, source, offset);
  else narrowTo16Bits(target.data as Uint16Array, source, offset, format);
}

function quantizeQ8(data: Int8Array, scales: Float32Array, source: Float32Array, offset: number, columns: number): void {
  for (let start = 0; start < source.length; start += columns) {
    const largest = largestMagnitude(source, start, columns, offset);
    const scale = Math.fround(largest / 127);
    scales[(offset + start) / columns] = scale;
    const inverse = scale === 0 ? 0 : 1 / scale;
    for (let index = start; index < start + columns; index++) data[offset + index] = roundHalfUp(source[index]! * inverse);
  }
}

function quantizeQ4(data: Uint8Array, scales: Float32Array, source: Float32Array, offset: number): void {
  for (let start = 0; start < source.length; start += Q4_BLOCK) {
    const largest = largestMagnitude(source, start, Q4_BLOCK, offset);
    const scale = Math.fround(largest / 7);
    scales[(offset + start) / Q4_BLOCK] = scale;
    const inverse = scale === 0 ? 0 : 1 / scale;
    const base = (offset + start) / 2;
    for (let j = 0; j < 16; j++) {
      const low = clampNibble(roundHalfUp(source[start + j]! * inverse));
      const high = clampNibble(roundHalfUp(source[start + j + 16]! * inverse));
      data[base + j] = (low + 8) | ((high + 8) << 4);
    }
  }
}

/** The largest magnitude among `count` weights from `start`; throws on a non-finite one (named at its index in the tensor). */
function largestMagnitude(source: Float32Array, start: number, count: number, offset: number): number {
  // Branch-free (Math.max): on trained or random weights a compare-and-branch mispredicts half the time.
  let largest = 0;
  for (let index = start; index < start + count; index++) largest = Math.max(largest, Math.abs(source[index]!));
  if (!(largest <= Number.MAX_VALUE)) {
    for (let index = start; index < start + count; index++) {
      if (!Number.isFinite(source[index]!)) throw new RangeError(`weight ${offset + index} is ${source[index]}: it cannot be quantized`);
    }
  }
  return largest;
}

/**
 * The nearest integer, halves up: `Math.round` for these magnitudes (at most 127.5), as a floor,
 * which compiles to one instruction where `Math.round`'s compare and branch mispredicts on
 * weights' random signs (2.5× slower measured).
 */
const roundHalfUp = (value: number) => Math.floor(value + 0.5);

function narrowTo16Bits(data: Uint16Array, source: Float32Array, offset: number, format: 'bf16' | 'fp16'): void {
  const narrow = format === 'bf16' ? toBfloat16Bits : toFloat16Bits;
  const infinite = format === 'bf16' ? 0x7f80 : 0x7c00;
  for (let index = 0; index < source.length; index++) {
    const bits = narrow(source[index]!);
    if ((bits & 0x7fff) >= infinite) {
      throw new RangeError(
        `weight ${offset + index} is ${source[index]}: it is not a finite ${format} value${format === 'fp16' ? " (fp16's largest is 65504)" : ''}`,
      );
    }
    data[offset + index] = bits;
  }
}

const clampNibble = (value: number) => Math.max(-8, Math.min(7, value));

/** A new matrix in its own buffer holding `source` quantized as `format`. */
export function quantizeTensor(source: Float32Array, format: QuantizedFormatV1, rows: number, columns: number): QuantizedTensorV1 {
  const matrix = quantizedTensorOver(new ArrayBuffer(quantizedBytes(format, rows, columns)), 0, format, rows, columns);
  quantizeInto(matrix, source);
  return matrix;
}

/** Writes rows `first..first + count` of `matrix`, dequantized, into `target` from `targetOffset` (`count · columns` floats). */
export function dequantizeRows(matrix: QuantizedTensorV1, first: number, count: number, target: Float32Array, targetOffset = 0): void {
  const { format, columns, scales, data } = matrix;
  if (format === 'bf16' || format === 'fp16') {
    const widen = format === 'bf16' ? bfloat16ToFloat32Bits : float16ToFloat32Bits;
    const bits = new Uint32Array(target.buffer, target.byteOffset + targetOffset * 4, count * columns);
    for (let index = 0, from = first * columns; index < count * columns; index++, from++) bits[index] = widen(data[from]!);
    return;
  }
  if (format === 'q8') {
    for (let row = first; row < first + count; row++) {
      const scale = scales[row]!;
      const from = row * columns;
      const to = targetOffset + (row - first) * columns;
      for (let column = 0; column < columns; column++) target[to + column] = scale * data[from + column]!;
    }
    return;
  }
  const blocksPerRow = columns / Q4_BLOCK;
  for (let row = first; row < first + count; row++) {
    for (let block = 0; block < blocksPerRow; block++) {
      const index = row * blocksPerRow + block;
      const scale = scales[index]!;
      const to = targetOffset + (row - first) * columns + block * Q4_BLOCK;
      for (let j = 0; j < 16; j++) {
        const byte = data[index * 16 + j]!;
        target[to + j] = scale * ((byte & 15) - 8);
        target[to + j + 16] = scale * ((byte >> 4) - 8);
      }
    }
  }
}
