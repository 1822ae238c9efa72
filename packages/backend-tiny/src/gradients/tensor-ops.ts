/** `target[i] += source[i]` for `i < length`. */
export function addInto(target: Float32Array, source: Float32Array, length = source.length): void {
  for (let index = 0; index < length; index++) target[index] = target[index]! + source[index]!;
}

/** Writes `source[rows, columns]` transposed into `target[columns, rows]`; returns `target`. */
export function transposeInto(target: Float32Array, source: Float32Array, rows: number, columns: number): Float32Array {
  for (let row = 0; row < rows; row++) {
    for (let column = 0; column < columns; column++) target[column * rows + row] = source[row * columns + column]!;
  }
  return target;
}

/**
 * Copies `count` rows of `width` floats starting at column `offset` of `source` (rows of
 * `stride`, from row `firstRow`) into the contiguous `target[count, width]`.
 */
export function gatherColumns(
  target: Float32Array,
  source: Float32Array,
  firstRow: number,
  count: number,
  stride: number,
  offset: number,
  width: number,
): void {
  for (let row = 0; row < count; row++) {
    const from = (firstRow + row) * stride + offset;
    target.set(source.subarray(from, from + width), row * width);
  }
}

/** The inverse of `gatherColumns`: writes `source[count, width]` into those columns of `target`. */
export function scatterColumns(
  target: Float32Array,
  source: Float32Array,
  firstRow: number,
  count: number,
  stride: number,
  offset: number,
  width: number,
): void {
  for (let row = 0; row < count; row++) {
    target.set(source.subarray(row * width, (row + 1) * width), (firstRow + row) * stride + offset);
  }
}
