/** The quantized formats a weight matrix is held in (`WeightDtypeV1`'s integer ones). */
export type QuantizedFormatV1 = 'q8' | 'q4';

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
 * Each weight is dequantized to the float32 `fround(scale · q)` exactly, whatever reads it.
 * Loaders make these as they read a folder (`dtype` of `loadDecoderFiles`) and backends that
 * hold the dtype (`BackendRegistration.dtypes`) take them as they are (`DecoderModel.quantized`).
 */
export interface QuantizedTensorV1 {
  readonly format: QuantizedFormatV1;
  readonly rows: number;
  readonly columns: number;
  /** The whole region: what is uploaded or shared. */
  readonly bytes: Uint8Array;
  /** `rows` scales (q8) or `rows · columns / 32` (q4), row-major. */
  readonly scales: Float32Array;
  /** The integers: `Int8Array` for q8, packed nibbles (`Uint8Array`) for q4. */
  readonly data: Int8Array | Uint8Array;
  /** Byte offset of `data` within `bytes`. */
  readonly dataOffset: number;
}

/** Whether a `[rows, columns]` matrix can be held as `format` (q4 needs whole blocks of 32). */
export function quantizable(format: QuantizedFormatV1, columns: number): boolean {
  return format === 'q8' || columns % Q4_BLOCK === 0;
}

const alignUp = (bytes: number) => Math.ceil(bytes / 16) * 16;

function scaleCount(format: QuantizedFormatV1, rows: number, columns: number): number {
  return format === 'q8' ? rows : (rows * columns) / Q4_BLOCK;
}

/** Bytes of the region a `[rows, columns]` matrix takes as `format` (a multiple of 16). */
export function quantizedBytes(format: QuantizedFormatV1, rows: number, columns: number): number {
  const dataBytes = format === 'q8' ? rows * columns : (rows * columns) / 2;
  return alignUp(scaleCount(format, rows, columns) * 4) + alignUp(dataBytes);
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
  const dataBytes = format === 'q8' ? rows * columns : (rows * columns) / 2;
  return {
    format,
    rows,
    columns,
    bytes,
    scales: new Float32Array(buffer, byteOffset, scales),
    data: format === 'q8' ? new Int8Array(buffer, byteOffset + dataOffset, dataBytes) : new Uint8Array(buffer, byteOffset + dataOffset, dataBytes),
    dataOffset,
  };
}

/**
 * Quantizes `source` (`[rows, columns]`, row-major) into `target`: symmetric, the scale the
 * largest magnitude over the integer range (127 for q8, 7 for q4), each weight rounded to the
 * nearest integer. A row or block of zeros gets scale 0. Throws on a non-finite weight.
 */
export function quantizeInto(target: QuantizedTensorV1, source: Float32Array): void {
  const { format, rows, columns, scales, data } = target;
  if (source.length !== rows * columns) throw new RangeError(`expected ${rows * columns} weights, got ${source.length}`);
  const group = format === 'q8' ? columns : Q4_BLOCK;
  const range = format === 'q8' ? 127 : 7;
  for (let start = 0, block = 0; start < source.length; start += group, block++) {
    let largest = 0;
    for (let index = start; index < start + group; index++) {
      const magnitude = Math.abs(source[index]!);
      if (!Number.isFinite(magnitude)) throw new RangeError(`weight ${index} is ${source[index]}: it cannot be quantized`);
      if (magnitude > largest) largest = magnitude;
    }
    const scale = Math.fround(largest / range);
    scales[block] = scale;
    const inverse = scale === 0 ? 0 : 1 / scale;
    if (format === 'q8') {
      for (let index = start; index < start + group; index++) data[index] = Math.round(source[index]! * inverse);
    } else {
      const base = start / 2;
      for (let j = 0; j < 16; j++) {
        const low = clampNibble(Math.round(source[start + j]! * inverse));
        const high = clampNibble(Math.round(source[start + j + 16]! * inverse));
        data[base + j] = (low + 8) | ((high + 8) << 4);
      }
    }
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
