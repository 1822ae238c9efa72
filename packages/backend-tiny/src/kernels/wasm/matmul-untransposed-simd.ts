import { valueType, type CodeEmitter } from './code-emitter.js';
import type { WasmModuleBuilder } from './wasm-module-builder.js';

const { i32, f32, v128 } = valueType;

/** Rows of `a` per register tile: `4 × 2` f32x4 accumulators, two vectors of `b` and a splat fit 16 registers. */
const TILE_ROWS = 4;
/** Vectors of four columns per wide tile. */
const TILE_VECTORS = 2;

/**
 * Adds the exported `gemm(out, a, b, rows, depth, columns, aRowStride, aDepthStride, bStride,
 * outStride, accumulate, depthBlock, rowBlock)`:
 * `out[m, n] = (accumulate ? out[m, n] : 0) + Σ_k a(m, k)·b[k, n]`, where `a(m, k)` is the float
 * at `a + m·aRowStride + k·aDepthStride` and `b` rows are `bStride` bytes apart (addresses and
 * strides in bytes). With `aDepthStride = 4` this is `x·w` for a row-major `w[in, out]`; with
 * `aRowStride = 4` it is `aᵀ·b` summed over the rows of `a` (a weight gradient `dyᵀ·x`).
 *
 * Every output is one float32 sum `acc += a·b` over `k` in ascending order, in a vector lane or
 * in the scalar tail alike; blocking `k` stores and reloads the float32 partial sum, which
 * changes nothing. So an output row depends on its row of `a` alone, bit for bit. `depthBlock`
 * and `rowBlock` block the loops for the caches (`b`'s block of rows stays in L2, a strip of it
 * in L1 while `rowBlock` rows of `a` sweep it).
 */
export function addMatmulUntransposed(builder: WasmModuleBuilder): void {
  const tile = (rows: number, vectors: number) => builder.addFunction(undefined, new Array(9).fill(i32), [], (code) => emitTile(code, rows, vectors));
  const tiles = [TILE_ROWS, 1].map((rows) => ({ rows, wide: tile(rows, TILE_VECTORS), narrow: tile(rows, 1), scalar: tile(rows, 0) }));
  builder.addFunction('gemm', new Array(13).fill(i32), [], (code) => emitDriver(code, tiles));
}

/**
 * `tile(out, a, b, depth, aRowStride, aDepthStride, bStride, outStride, load)`: `rows ×
 * 4·vectors` outputs (one column when `vectors` is 0), started from `out` when `load` is set.
 */
function emitTile(code: CodeEmitter, rows: number, vectors: number): void {
  const [out, a, b, depth, aRowStride, aDepthStride, bStride, outStride, load] = [0, 1, 2, 3, 4, 5, 6, 7, 8];
  const scalar = vectors === 0;
  const columns = scalar ? 1 : vectors;
  const k = code.addLocal(i32);
  const bRow = code.addLocal(i32);
  const aPointers = Array.from({ length: rows }, () => code.addLocal(i32));
  const accumulators = Array.from({ length: rows }, () => Array.from({ length: columns }, () => code.addLocal(scalar ? f32 : v128)));
  const bValues = Array.from({ length: columns }, () => code.addLocal(scalar ? f32 : v128));
  const factor = code.addLocal(scalar ? f32 : v128);

  const outputAddress = (row: number) => {
    code.localGet(out);
    if (row > 0) code.localGet(outStride).i32Const(row).i32Mul().i32Add();
  };
  aPointers.forEach((pointer, row) => {
    code.localGet(a);
    if (row > 0) code.localGet(aRowStride).i32Const(row).i32Mul().i32Add();
    code.localSet(pointer);
  });
  code.localGet(b).localSet(bRow);
  code.localGet(load).if(() => {
    accumulators.forEach((locals, row) =>
      locals.forEach((accumulator, column) => {
        outputAddress(row);
        if (scalar) code.f32Load();
        else code.v128Load(16 * column);
        code.localSet(accumulator);
      }),
    );
  });
  code.while(
    () => code.localGet(k).localGet(depth).i32LtU(),
    () => {
      bValues.forEach((local, column) => {
        code.localGet(bRow);
        if (scalar) code.f32Load();
        else code.v128Load(16 * column);
        code.localSet(local);
      });
      aPointers.forEach((pointer, row) => {
        code.localGet(pointer);
        if (scalar) code.f32Load();
        else code.v128Load32Splat();
        code.localSet(factor);
        bValues.forEach((value, column) => {
          const accumulator = accumulators[row]![column]!;
          code.localGet(accumulator).localGet(factor).localGet(value);
          if (scalar) code.f32Mul().f32Add();
          else code.f32x4Mul().f32x4Add();
          code.localSet(accumulator);
        });
        code.addTo(pointer, () => code.localGet(aDepthStride));
      });
      code.addTo(bRow, () => code.localGet(bStride)).addTo(k, 1);
    },
  );
  accumulators.forEach((locals, row) =>
    locals.forEach((accumulator, column) => {
      outputAddress(row);
      code.localGet(accumulator);
      if (scalar) code.f32Store();
      else code.v128Store(16 * column);
    }),
  );
}

/** Loops: depth blocks, row blocks, column tiles (wide, narrow, scalar), row tiles (4, then 1). */
function emitDriver(code: CodeEmitter, tiles: { rows: number; wide: number; narrow: number; scalar: number }[]): void {
  const [out, a, b, rows, depth, columns, aRowStride, aDepthStride, bStride, outStride, accumulate, depthBlock, rowBlock] = [
    0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12,
  ];
  const depthStart = code.addLocal(i32);
  const depthLength = code.addLocal(i32);
  const load = code.addLocal(i32);
  const blockStart = code.addLocal(i32);
  const blockEnd = code.addLocal(i32);
  const row = code.addLocal(i32);
  const column = code.addLocal(i32);
  const columnBytes = code.addLocal(i32);
  code.localGet(columns).i32Const(2).i32Shl().localSet(columnBytes);

  const callTile = (tileFunction: number) => {
    code.localGet(out).localGet(row).localGet(outStride).i32Mul().i32Add().localGet(column).i32Add();
    code.localGet(a).localGet(row).localGet(aRowStride).i32Mul().i32Add().localGet(depthStart).localGet(aDepthStride).i32Mul().i32Add();
    code.localGet(b).localGet(depthStart).localGet(bStride).i32Mul().i32Add().localGet(column).i32Add();
    code.localGet(depthLength).localGet(aRowStride).localGet(aDepthStride).localGet(bStride).localGet(outStride).localGet(load).call(tileFunction);
  };

  code.while(
    () => code.localGet(depthStart).localGet(depth).i32LtU(),
    () => {
      // depthLength = min(depthBlock, depth - depthStart); load = accumulate | (depthStart != 0)
      code.localGet(depthBlock).localGet(depth).localGet(depthStart).i32Sub().localTee(depthLength);
      code.localGet(depthBlock).localGet(depthLength).i32LtU().select().localSet(depthLength);
      code.localGet(accumulate).localGet(depthStart).i32Const(0).i32Ne().i32Or().localSet(load);
      code.i32Const(0).localSet(blockStart);
      code.while(
        () => code.localGet(blockStart).localGet(rows).i32LtU(),
        () => {
          code.localGet(rows).localGet(blockStart).localGet(rowBlock).i32Add().localTee(blockEnd);
          code.localGet(rows).localGet(blockEnd).i32LtU().select().localSet(blockEnd);
          code.i32Const(0).localSet(column);
          for (const [kind, bytes] of [
            ['wide', 16 * TILE_VECTORS],
            ['narrow', 16],
            ['scalar', 4],
          ] as const) {
            code.while(
              () => code.localGet(column).i32Const(bytes).i32Add().localGet(columnBytes).i32LeU(),
              () => {
                code.localGet(blockStart).localSet(row);
                for (const tile of tiles) {
                  code.while(
                    () => code.localGet(row).i32Const(tile.rows).i32Add().localGet(blockEnd).i32LeU(),
                    () => {
                      callTile(tile[kind]);
                      code.addTo(row, tile.rows);
                    },
                  );
                }
                code.addTo(column, bytes);
              },
            );
          }
          code.localGet(blockEnd).localSet(blockStart);
        },
      );
      code.addTo(depthStart, () => code.localGet(depthLength));
    },
  );
}

/** Rows of `b` per depth block: about 256 KiB of `b`, which stays in L2 while every row block sweeps it. */
export function gemmDepthBlock(columns: number): number {
  return Math.max(16, Math.floor((256 * 1024) / (4 * Math.max(1, columns))));
}

/** Rows of `a` per row block: the tiles of a block reuse one strip of `b` from L1. */
export const GEMM_ROW_BLOCK = 64;
