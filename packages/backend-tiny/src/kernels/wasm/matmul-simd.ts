import { valueType, type CodeEmitter } from './code-emitter.js';
import { emitFourLaneSums, emitLaneSum, emitOutputAddress, emitPointers } from './tile-parts.js';
import type { WasmModuleBuilder } from './wasm-module-builder.js';

const { i32, f32, v128 } = valueType;

/**
 * Rows of `x` per register tile: `2 × 4` f32x4 accumulators plus the operands fit x86-64's 16
 * vector registers. (3 and 4 rows, or unrolling the `k` loop, make V8 spill: slower.)
 */
export const TILE_ROWS = 2;

/**
 * Adds the exported `matmul(out, x, w, bias, rows, inDim, outDim, outStride, xStride, wStride,
 * rowBlock)`: `out[r, o] = Σ_k x[r, k]·w[o, k] (+ bias[o])`. Addresses and strides are in
 * bytes (no alignment needed); `bias = 0` means none. `rowBlock` rows of `x` are swept against
 * each 4-row tile of `w`, a cache blocking that does not change any result.
 *
 * Every output is computed the same way, whichever tile holds it:
 *
 * 1. four f32 lane sums over `k ≡ lane (mod 4)`, `k < inDim & ~3`, ascending, each step
 *    `lane += x·w` (f32 multiply, then f32 add);
 * 2. `(lane0 + lane1) + (lane2 + lane3)`;
 * 3. `+ x[r, k]·w[o, k]` for the `inDim % 4` last `k`, ascending;
 * 4. `+ bias[o]`.
 *
 * All steps are IEEE float32 operations, so a row's result is independent of the other rows
 * and of its place in a tile. The 4-output tiles do step 2 with shuffles on four accumulators
 * at once: the same lane pairs, added in the same order as the scalar form.
 */
export function addMatmul(builder: WasmModuleBuilder): void {
  const tile = (rows: number, columns: number) =>
    builder.addFunction(undefined, [i32, i32, i32, i32, i32, i32, i32, i32], [], (code) => emitTile(code, rows, columns));
  const tiles = { main: tile(TILE_ROWS, 4), rowTail: tile(1, 4), columnTail: tile(TILE_ROWS, 1), corner: tile(1, 1) };
  builder.addFunction('matmul', new Array(12).fill(i32), [], (code) => emitDriver(code, tiles));
}

/**
 * `tile(out, x, w, bias, inDim, outStride, xStride, wStride)`: `rows × columns` outputs.
 * `out`, `x`, `w` and `bias` point at the tile's first output, row of x, row of w and bias.
 */
function emitTile(code: CodeEmitter, rows: number, columns: number): void {
  const [out, x, w, bias, inDim, outStride, xStride, wStride] = [0, 1, 2, 3, 4, 5, 6, 7];
  const end = code.addLocal(i32);
  const vectorEnd = code.addLocal(i32);
  const k = code.addLocal(i32);
  const rowPointers = Array.from({ length: rows }, () => code.addLocal(i32));
  const columnPointers = Array.from({ length: columns }, () => code.addLocal(i32));
  const accumulators = Array.from({ length: rows }, () => Array.from({ length: columns }, () => code.addLocal(v128)));
  const weightVectors = Array.from({ length: columns }, () => code.addLocal(v128));
  const input = code.addLocal(v128);
  const sum = code.addLocal(f32);

  code.localGet(inDim).i32Const(2).i32Shl().localTee(end).i32Const(~15).i32And().localSet(vectorEnd);
  emitPointers(code, rowPointers, x, xStride);
  emitPointers(code, columnPointers, w, wStride);

  // Step 1 (locals start at zero).
  code.localGet(vectorEnd).if(() => {
    code.loop(() => {
      columnPointers.forEach((pointer, column) => code.localGet(pointer).localGet(k).i32Add().v128Load().localSet(weightVectors[column]!));
      rowPointers.forEach((pointer, row) => {
        code.localGet(pointer).localGet(k).i32Add().v128Load().localSet(input);
        weightVectors.forEach((weights, column) => {
          const accumulator = accumulators[row]![column]!;
          code.localGet(accumulator).localGet(input).localGet(weights).f32x4Mul().f32x4Add().localSet(accumulator);
        });
      });
      code.addTo(k, 16).localGet(k).localGet(vectorEnd).i32LtU().brIf(0);
    });
  });

  const outputAddress = (row: number) => emitOutputAddress(code, out, outStride, row);
  // Steps 3 and 4 for one output whose step-2 sum is in `sum`; then stores it.
  const finishScalar = (row: number, column: number) => {
    code.localGet(vectorEnd).localSet(k);
    code.while(
      () => code.localGet(k).localGet(end).i32LtU(),
      () => {
        code.localGet(sum);
        code.localGet(rowPointers[row]!).localGet(k).i32Add().f32Load();
        code.localGet(columnPointers[column]!).localGet(k).i32Add().f32Load();
        code.f32Mul().f32Add().localSet(sum).addTo(k, 4);
      },
    );
    code.localGet(bias).if(() => {
      code
        .localGet(sum)
        .localGet(bias)
        .i32Const(column * 4)
        .i32Add()
        .f32Load()
        .f32Add()
        .localSet(sum);
    });
    outputAddress(row);
    code
      .i32Const(column * 4)
      .i32Add()
      .localGet(sum)
      .f32Store();
  };

  for (let row = 0; row < rows; row++) {
    const lanes = accumulators[row]!;
    if (columns === 4) {
      // Step 2 for four outputs a..d, in `a`.
      emitFourLaneSums(code, lanes);
      const a = lanes[0]!;
      // Without a tail or a bias the four sums are final: one vector store.
      code
        .localGet(end)
        .localGet(vectorEnd)
        .i32Ne()
        .localGet(bias)
        .i32Or()
        .ifElse(
          () => {
            for (let column = 0; column < 4; column++) {
              code.localGet(a).f32x4ExtractLane(column).localSet(sum);
              finishScalar(row, column);
            }
          },
          () => {
            outputAddress(row);
            code.localGet(a).v128Store();
          },
        );
    } else {
      lanes.forEach((lane, column) => {
        emitLaneSum(code, lane);
        code.localSet(sum);
        finishScalar(row, column);
      });
    }
  }
}

/** A product's four tile functions: `TILE_ROWS × 4` outputs, then the row, column and corner tails. */
export interface MatmulTiles {
  main: number;
  rowTail: number;
  columnTail: number;
  corner: number;
}

/**
 * The loops: over blocks of `columnBlock` rows of `w` (about half the L2 cache), within each over
 * blocks of `rowBlock` rows of `x` (about half the L1), within each over 4-column tiles of `w`
 * and tiles of rows; the column tail in the last block. Each block of `w` is read from memory
 * once and swept by every row of `x` from the L2 cache; no output's arithmetic changes.
 *
 * With `scaled` (the integer product), the driver takes two more parameters, `rowScales` and
 * `columnScales` (a float32 per row of `x` and per row of `w`), and hands each tile the
 * addresses of its first row's and first column's scales after its other arguments.
 */
export function emitDriver(code: CodeEmitter, tiles: MatmulTiles, scaled = false): void {
  const [out, x, w, bias, rows, inDim, outDim, outStride, xStride, wStride, rowBlock, columnBlock, rowScales, columnScales] = [
    0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13,
  ];
  const blockStart = code.addLocal(i32);
  const blockEnd = code.addLocal(i32);
  const tiledEnd = code.addLocal(i32);
  const column = code.addLocal(i32);
  const row = code.addLocal(i32);
  const columnStart = code.addLocal(i32);
  const columnEnd = code.addLocal(i32);

  const callTile = (tileFunction: number) => {
    code.localGet(out).localGet(row).localGet(outStride).i32Mul().i32Add().localGet(column).i32Const(2).i32Shl().i32Add();
    code.localGet(x).localGet(row).localGet(xStride).i32Mul().i32Add();
    code.localGet(w).localGet(column).localGet(wStride).i32Mul().i32Add();
    code.localGet(bias).localGet(column).i32Const(2).i32Shl().i32Add().i32Const(0).localGet(bias).select();
    code.localGet(inDim).localGet(outStride).localGet(xStride).localGet(wStride);
    if (scaled) {
      code.localGet(rowScales).localGet(row).i32Const(2).i32Shl().i32Add();
      code.localGet(columnScales).localGet(column).i32Const(2).i32Shl().i32Add();
    }
    code.call(tileFunction);
  };
  const rowLoops = (tiled: number, single: number) => {
    code.localGet(blockStart).localSet(row);
    code.while(
      () => code.localGet(row).localGet(tiledEnd).i32LtU(),
      () => {
        callTile(tiled);
        code.addTo(row, TILE_ROWS);
      },
    );
    code.while(
      () => code.localGet(row).localGet(blockEnd).i32LtU(),
      () => {
        callTile(single);
        code.addTo(row, 1);
      },
    );
  };

  code.while(
    () => code.localGet(columnStart).localGet(outDim).i32LtU(),
    () => {
      // columnEnd = min(outDim, columnStart + columnBlock)
      code.localGet(outDim).localGet(columnStart).localGet(columnBlock).i32Add().localTee(columnEnd);
      code.localGet(outDim).localGet(columnEnd).i32LtU().select().localSet(columnEnd);
      code.i32Const(0).localSet(blockStart);
      code.while(
        () => code.localGet(blockStart).localGet(rows).i32LtU(),
        () => {
          // blockEnd = min(rows, blockStart + rowBlock); tiledEnd = blockEnd - (blockEnd - blockStart) % TILE_ROWS
          code.localGet(rows).localGet(blockStart).localGet(rowBlock).i32Add().localTee(blockEnd);
          code.localGet(rows).localGet(blockEnd).i32LtU().select().localSet(blockEnd);
          code.localGet(blockEnd).localGet(blockEnd).localGet(blockStart).i32Sub().i32Const(TILE_ROWS).i32RemU().i32Sub().localSet(tiledEnd);
          code.localGet(columnStart).localSet(column);
          code.while(
            () => code.localGet(column).i32Const(4).i32Add().localGet(columnEnd).i32LeU(),
            () => {
              rowLoops(tiles.main, tiles.rowTail);
              code.addTo(column, 4);
            },
          );
          code.while(
            () => code.localGet(column).localGet(columnEnd).i32LtU(),
            () => {
              rowLoops(tiles.columnTail, tiles.corner);
              code.addTo(column, 1);
            },
          );
          code.addTo(blockStart, () => code.localGet(rowBlock));
        },
      );
      code.addTo(columnStart, () => code.localGet(columnBlock));
    },
  );
}

/** Bytes of `x` swept against each tile of `w`: about half of a 48 KiB L1 data cache. */
const ROW_BLOCK_BYTES = 24 * 1024;

/** The `rowBlock` argument of `matmul` for rows of `inDim` floats. */
export function matmulRowBlock(inDim: number): number {
  return Math.max(1, Math.floor(ROW_BLOCK_BYTES / (4 * inDim * TILE_ROWS))) * TILE_ROWS;
}

/** Bytes of `w` swept by every row of `x` before the next block: about a 1 MiB L2 cache (measured: smaller blocks were slower). */
const COLUMN_BLOCK_BYTES = 1024 * 1024;

/** The `columnBlock` argument of `matmul` for rows of `w` of `inDim` floats (a multiple of 4, at least 4). */
export function matmulColumnBlock(inDim: number): number {
  return Math.max(1, Math.floor(COLUMN_BLOCK_BYTES / (4 * inDim * 4))) * 4;
}
