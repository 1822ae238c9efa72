import { valueType, type CodeEmitter } from './code-emitter.js';
import type { WasmModuleBuilder } from './wasm-module-builder.js';

const { i32, f32, v128 } = valueType;

/**
 * Rows of `x` per register tile: `2 × 4` f32x4 accumulators plus the operands fit x86-64's 16
 * vector registers. (3 and 4 rows, or unrolling the `k` loop, make V8 spill: slower.)
 */
const TILE_ROWS = 2;

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
  const pointers = (locals: number[], first: number, stride: number) =>
    locals.forEach((local, index) => {
      if (index === 0) code.localGet(first);
      else
        code
          .localGet(locals[index - 1]!)
          .localGet(stride)
          .i32Add();
      code.localSet(local);
    });
  pointers(rowPointers, x, xStride);
  pointers(columnPointers, w, wStride);

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

  const outputAddress = (row: number) => {
    code.localGet(out);
    if (row > 0) code.localGet(outStride).i32Const(row).i32Mul().i32Add();
  };
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
      // Step 2 for four outputs a..d: [a0+a1, a2+a3, b0+b1, b2+b3] and [c0+c1, c2+c3, d0+d1, d2+d3],
      // then [a0+a1, b0+b1, c0+c1, d0+d1] + [a2+a3, b2+b3, c2+c3, d2+d3].
      const pairSums = (first: number, second: number) => {
        code.localGet(first).localGet(second).f32x4Shuffle([0, 2, 4, 6]);
        code.localGet(first).localGet(second).f32x4Shuffle([1, 3, 5, 7]);
        code.f32x4Add();
      };
      const [a, b, c, d] = lanes as [number, number, number, number];
      pairSums(a, b);
      code.localSet(a);
      pairSums(c, d);
      code.localSet(c);
      pairSums(a, c);
      code.localSet(a);
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
        code.localGet(lane).f32x4ExtractLane(0).localGet(lane).f32x4ExtractLane(1).f32Add();
        code.localGet(lane).f32x4ExtractLane(2).localGet(lane).f32x4ExtractLane(3).f32Add();
        code.f32Add().localSet(sum);
        finishScalar(row, column);
      });
    }
  }
}

/**
 * The loops: over blocks of `columnBlock` rows of `w` (about half the L2 cache), within each over
 * blocks of `rowBlock` rows of `x` (about half the L1), within each over 4-column tiles of `w`
 * and tiles of rows; the column tail in the last block. Each block of `w` is read from memory
 * once and swept by every row of `x` from the L2 cache; no output's arithmetic changes.
 */
function emitDriver(code: CodeEmitter, tiles: { main: number; rowTail: number; columnTail: number; corner: number }): void {
  const [out, x, w, bias, rows, inDim, outDim, outStride, xStride, wStride, rowBlock, columnBlock] = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11];
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
    code.localGet(inDim).localGet(outStride).localGet(xStride).localGet(wStride).call(tileFunction);
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
