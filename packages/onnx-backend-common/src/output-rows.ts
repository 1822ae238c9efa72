import { float16ToFloat32Bits } from '@reward-lens/spec/internal';

/**
 * Per row, the values at some cells of an output `[cells, stride]` (row-major, as onnxruntime
 * returns it): `cells[row]` lists the cells, in the order they are read, and `columns` picks
 * some of each cell's values (all when absent).
 *
 * A row whose cells are consecutive and read whole is a view into the output, not a copy. A view
 * keeps the whole output alive, so views are taken only when they cover at least half of it
 * (the rule the cache rows follow): a few positions read out of a large output are copied, and
 * the output can be freed. A float16 output (its bits) is always copied, each value widened exactly.
 */
export function outputRows(
  data: Float32Array | Uint16Array,
  stride: number,
  cells: readonly (readonly number[])[],
  columns: readonly number[] | undefined,
): Float32Array[] {
  if (data instanceof Uint16Array) return halfOutputRows(data, stride, cells, columns);
  const width = columns?.length ?? stride;
  const consecutive = (rowCells: readonly number[]) => rowCells.every((cell, index) => index === 0 || cell === rowCells[index - 1]! + 1);
  const covered = cells.reduce((total, rowCells) => total + rowCells.length * stride, 0);
  const asViews = columns === undefined && covered * 2 >= data.length && cells.every(consecutive);
  return cells.map((rowCells) => {
    if (asViews) {
      const start = (rowCells[0] ?? 0) * stride;
      return data.subarray(start, start + rowCells.length * stride);
    }
    const values = new Float32Array(rowCells.length * width);
    rowCells.forEach((cell, index) => {
      if (columns === undefined) values.set(data.subarray(cell * stride, (cell + 1) * stride), index * width);
      else for (let offset = 0; offset < columns.length; offset++) values[index * width + offset] = data[cell * stride + columns[offset]!]!;
    });
    return values;
  });
}

function halfOutputRows(data: Uint16Array, stride: number, cells: readonly (readonly number[])[], columns: readonly number[] | undefined): Float32Array[] {
  const width = columns?.length ?? stride;
  return cells.map((rowCells) => {
    const bits = new Uint32Array(rowCells.length * width);
    rowCells.forEach((cell, index) => {
      for (let offset = 0; offset < width; offset++) bits[index * width + offset] = float16ToFloat32Bits(data[cell * stride + (columns?.[offset] ?? offset)]!);
    });
    return new Float32Array(bits.buffer);
  });
}
