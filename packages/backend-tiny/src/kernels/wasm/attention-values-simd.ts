import { valueType, type CodeEmitter } from './code-emitter.js';
import type { WasmModuleBuilder } from './wasm-module-builder.js';

const { i32, f32, v128 } = valueType;

/** Query rows per tile; each tile holds `2 × 4` f32x4 accumulators (16 output columns a row). */
const TILE_ROWS = 2;
const TILE_VECTORS = 4;

/**
 * Adds `attendValues(out, p, v, rows, firstVisible, pStride, vStride, outStride, width)`, the
 * attention-weighted sum of values: `out[q, d] = Σ_{key < firstVisible + q} p[q, key]·v[key, d]`
 * for `d < width`. `p` rows (probabilities), `v` rows (one head's values, `[key, d]`) and `out`
 * rows are `pStride`, `vStride`, `outStride` bytes apart.
 *
 * Each output is one float32 sum over its row's visible keys in ascending order (`sum += p·v`),
 * whether it sits in a vector lane or in the scalar tail, so it depends on its query row alone:
 * not on the block of queries around it, nor on probabilities past its visible keys.
 */
export function addAttendValues(builder: WasmModuleBuilder): void {
  const tile = (rows: number, vectors: number) =>
    builder.addFunction(undefined, [i32, i32, i32, i32, i32, i32, i32], [], (code) => emitTile(code, rows, vectors));
  const tiles = [TILE_ROWS, 1].map((rows) => ({ rows, wide: tile(rows, TILE_VECTORS), narrow: tile(rows, 1), scalar: tile(rows, 0) }));
  builder.addFunction('attendValues', new Array(9).fill(i32), [], (code) => emitDriver(code, tiles));
}

/**
 * `tile(out, p, v, visible, pStride, vStride, outStride)`: `rows` query rows (the first seeing
 * `visible` keys, each next one key more) × `4·vectors` columns, or 1 column when `vectors` is 0.
 */
function emitTile(code: CodeEmitter, rows: number, vectors: number): void {
  const [out, p, v, visible, pStride, vStride, outStride] = [0, 1, 2, 3, 4, 5, 6];
  const scalar = vectors === 0;
  const columns = scalar ? 1 : vectors;
  const key = code.addLocal(i32);
  const end = code.addLocal(i32);
  const valueRow = code.addLocal(i32);
  const probabilityRows = Array.from({ length: rows }, () => code.addLocal(i32));
  const accumulators = Array.from({ length: rows }, () => Array.from({ length: columns }, () => code.addLocal(scalar ? f32 : v128)));
  const values = Array.from({ length: columns }, () => code.addLocal(scalar ? f32 : v128));
  const weight = code.addLocal(scalar ? f32 : v128);

  code.localGet(visible).i32Const(2).i32Shl().localSet(end);
  code.localGet(v).localSet(valueRow);
  probabilityRows.forEach((local, row) => {
    code.localGet(p);
    if (row > 0) code.localGet(pStride).i32Const(row).i32Mul().i32Add();
    code.localSet(local);
  });
  // One key for the rows from `firstRow` on; advances to the next key.
  const step = (firstRow: number) => {
    values.forEach((local, column) => {
      code.localGet(valueRow);
      if (scalar) code.f32Load();
      else code.v128Load(16 * column);
      code.localSet(local);
    });
    for (let row = firstRow; row < rows; row++) {
      code.localGet(probabilityRows[row]!).localGet(key).i32Add();
      if (scalar) code.f32Load();
      else code.v128Load32Splat();
      code.localSet(weight);
      values.forEach((local, column) => {
        const accumulator = accumulators[row]![column]!;
        code.localGet(accumulator).localGet(weight).localGet(local);
        if (scalar) code.f32Mul().f32Add();
        else code.f32x4Mul().f32x4Add();
        code.localSet(accumulator);
      });
    }
    code.addTo(key, 4).addTo(valueRow, () => code.localGet(vStride));
  };
  // Keys every row sees, then one more key for each later row.
  code.while(
    () => code.localGet(key).localGet(end).i32LtU(),
    () => step(0),
  );
  for (let row = 1; row < rows; row++) step(row);

  accumulators.forEach((locals, row) => {
    locals.forEach((accumulator, column) => {
      code.localGet(out);
      if (row > 0) code.localGet(outStride).i32Const(row).i32Mul().i32Add();
      code.localGet(accumulator);
      if (scalar) code.f32Store();
      else code.v128Store(16 * column);
    });
  });
}

function emitDriver(code: CodeEmitter, tiles: { rows: number; wide: number; narrow: number; scalar: number }[]): void {
  const [out, p, v, rows, firstVisible, pStride, vStride, outStride, width] = [0, 1, 2, 3, 4, 5, 6, 7, 8];
  const q = code.addLocal(i32);
  const column = code.addLocal(i32);
  const widthBytes = code.addLocal(i32);
  code.localGet(width).i32Const(2).i32Shl().localSet(widthBytes);

  const callTile = (tileFunction: number) => {
    code.localGet(out).localGet(q).localGet(outStride).i32Mul().i32Add().localGet(column).i32Add();
    code.localGet(p).localGet(q).localGet(pStride).i32Mul().i32Add();
    code.localGet(v).localGet(column).i32Add();
    code.localGet(firstVisible).localGet(q).i32Add();
    code.localGet(pStride).localGet(vStride).localGet(outStride).call(tileFunction);
  };
  for (const { rows: tileRows, wide, narrow, scalar } of tiles) {
    code.while(
      () => code.localGet(q).i32Const(tileRows).i32Add().localGet(rows).i32LeU(),
      () => {
        code.i32Const(0).localSet(column);
        for (const [tileFunction, bytes] of [
          [wide, 16 * TILE_VECTORS],
          [narrow, 16],
          [scalar, 4],
        ] as const) {
          code.while(
            () => code.localGet(column).i32Const(bytes).i32Add().localGet(widthBytes).i32LeU(),
            () => {
              callTile(tileFunction);
              code.addTo(column, bytes);
            },
          );
        }
        code.addTo(q, tileRows);
      },
    );
  }
}
