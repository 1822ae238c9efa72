import { valueType, type CodeEmitter } from './code-emitter.js';
import { emitDriver, TILE_ROWS } from './matmul-simd.js';
import { emitFourLaneSums, emitLaneSum, emitOutputAddress, emitPointers } from './tile-parts.js';
import type { WasmModuleBuilder } from './wasm-module-builder.js';

const { i32, f32, v128 } = valueType;

/**
 * Levels each side of zero an activation is quantized to: 15 bits and a sign, held as i16. ±2047
 * (12 bits) and ±127 (8 bits) in the same lanes ran no faster (0.95–1.05× the time, the flushes
 * below within the noise) with 16× and 250× the error (`bench/activation-bits.ts`: 2.4e-3 and
 * 3.8e-2 against 1.5e-4, RMS over RMS, at 0.5B's gate/up shape).
 */
export const ACTIVATION_LEVELS = 32_767;

/**
 * The largest magnitude of a q8 weight the bound below allows: 128 (`quantizeInto` writes
 * -127..127; a tensor made elsewhere may hold -128).
 */
const WEIGHT_MAGNITUDE = 128;

/**
 * Elements of `k` each i32 lane sums before it is added into float32 (a multiple of 8): each
 * 8 elements `i32x4.dot_i16x8_s` adds two products of at most `levels · 128` to a lane, so a lane
 * of `steps` such steps stays below 2^31 whatever `inDim` (2,048 elements at ±32767, 32,784 at ±2047).
 */
export const flushElements = (levels: number) => 8 * Math.floor((2 ** 31 - 1) / (2 * WEIGHT_MAGNITUDE * levels));

/** Bytes of a quantized activation row in scratch: `inDim` i16, padded to 16 bytes. */
export const quantizedRowBytes = (inDim: number) => Math.ceil(inDim / 8) * 16;

/** Below this a row's largest magnitude counts as zero (its quantization scale would underflow float32). */
const SMALLEST_ROW_MAGNITUDE = 2 ** -100;

/**
 * Adds the exported `quantizeActivations(out, scales, x, rows, inDim, outStride)` and
 * `matmulQ8(out, xq, w, bias, rows, inDim, outDim, outStride, xStride, wStride, rowBlock,
 * columnBlock, xScales, wScales)`.
 *
 * `quantizeActivations`: each row of `x` (float32) symmetric to i16, on its own:
 * `scale = max|x| / 32767` (float32), `q = nearest(x · fround(32767 / max|x|))` (ties to even,
 * saturating); a row whose largest magnitude is below 2^-100 is all zeros (scale kept), a row
 * holding NaN or ±∞ gets a NaN or infinite scale, so its outputs are NaN.
 *
 * `matmulQ8`: `out[r, o] = (Σ_k xq[r, k]·w[o, k]) · (xScales[r] · wScales[o]) (+ bias[o])` over
 * q8 weights (`w`: int8 rows). Every output is computed the same way, whichever tile holds it:
 *
 * 1. four i32 lane sums of `i32x4.dot_i16x8_s` over `k < inDim & ~7` (8 weights widened by
 *    `v128.load8x8_s`), exact, each lane added into a float32 lane every `flushElements(levels)`;
 * 2. `(lane0 + lane1) + (lane2 + lane3)` in float32;
 * 3. when `inDim % 8 > 0`, `+ float32(Σ xq·w)` over the last `k` (an exact i32 sum);
 * 4. `· (xScale · wScale)`, then `+ bias[o]`.
 *
 * So a row's outputs depend on that row alone, bit for bit.
 */
export function addMatmulQ8(builder: WasmModuleBuilder, levels = ACTIVATION_LEVELS): void {
  builder.addFunction('quantizeActivations', [i32, i32, i32, i32, i32, i32], [], (code) => emitQuantizeActivations(code, levels));
  const tile = (rows: number, columns: number) =>
    builder.addFunction(undefined, new Array(10).fill(i32), [], (code) => emitTile(code, rows, columns, flushElements(levels)));
  const tiles = { main: tile(TILE_ROWS, 4), rowTail: tile(1, 4), columnTail: tile(TILE_ROWS, 1), corner: tile(1, 1) };
  builder.addFunction('matmulQ8', new Array(14).fill(i32), [], (code) => emitDriver(code, tiles, true));
}

function emitQuantizeActivations(code: CodeEmitter, levels: number): void {
  const [out, scales, x, rows, inDim, outStride] = [0, 1, 2, 3, 4, 5];
  const row = code.addLocal(i32);
  const k = code.addLocal(i32);
  const vectorEnd = code.addLocal(i32);
  const largest = code.addLocal(f32);
  const inverse = code.addLocal(f32);
  const lanes = code.addLocal(v128);
  const multiplier = code.addLocal(v128);
  const element = (offset: number) => code.localGet(x).localGet(k).i32Const(2).i32Shl().i32Add().v128Load(offset);
  const quantized = (offset: number) => element(offset).localGet(multiplier).f32x4Mul().f32x4Nearest().i32x4TruncSatF32x4S();
  code.localGet(inDim).i32Const(~7).i32And().localSet(vectorEnd);
  code.while(
    () => code.localGet(row).localGet(rows).i32LtU(),
    () => {
      // The largest magnitude (f32x4.max and f32.max keep a NaN).
      code.f32x4Const(0).localSet(lanes).i32Const(0).localSet(k);
      code.while(
        () => code.localGet(k).i32Const(4).i32Add().localGet(inDim).i32LeU(),
        () => {
          code.localGet(lanes);
          element(0).f32x4Abs().f32x4Max().localSet(lanes);
          code.addTo(k, 4);
        },
      );
      code.localGet(lanes).f32x4ExtractLane(0).localGet(lanes).f32x4ExtractLane(1).f32Max();
      code.localGet(lanes).f32x4ExtractLane(2).localGet(lanes).f32x4ExtractLane(3).f32Max().f32Max().localSet(largest);
      code.while(
        () => code.localGet(k).localGet(inDim).i32LtU(),
        () => {
          code.localGet(largest).localGet(x).localGet(k).i32Const(2).i32Shl().i32Add().f32Load().f32Abs().f32Max().localSet(largest);
          code.addTo(k, 1);
        },
      );
      code.localGet(scales).localGet(row).i32Const(2).i32Shl().i32Add();
      code.localGet(largest).f32Const(levels).f32Div().f32Store();
      // inverse = largest >= 2^-100 ? 32767 / largest : 0 (0 for a NaN too: the scale carries it).
      code.f32Const(levels).localGet(largest).f32Div().f32Const(0);
      code.localGet(largest).f32Const(SMALLEST_ROW_MAGNITUDE).f32Ge().select().localTee(inverse).f32x4Splat().localSet(multiplier);
      code.i32Const(0).localSet(k);
      code.while(
        () => code.localGet(k).localGet(vectorEnd).i32LtU(),
        () => {
          code.localGet(out).localGet(k).i32Const(1).i32Shl().i32Add();
          quantized(0);
          quantized(16);
          code.i16x8NarrowI32x4S().v128Store();
          code.addTo(k, 8);
        },
      );
      code.while(
        () => code.localGet(k).localGet(inDim).i32LtU(),
        () => {
          code.localGet(out).localGet(k).i32Const(1).i32Shl().i32Add();
          code.localGet(x).localGet(k).i32Const(2).i32Shl().i32Add().f32Load().localGet(inverse).f32Mul().f32Nearest().i32TruncSatF32S();
          code.i32Store16();
          code.addTo(k, 1);
        },
      );
      code.addTo(x, () => code.localGet(inDim).i32Const(2).i32Shl());
      code.addTo(out, () => code.localGet(outStride));
      code.addTo(row, 1);
    },
  );
}

/**
 * `tile(out, xq, w, bias, inDim, outStride, xStride, wStride, xScale, wScale)`: `rows × columns`
 * outputs; the pointers are at the tile's first output, row of `xq`, row of `w`, bias, scales.
 */
function emitTile(code: CodeEmitter, rows: number, columns: number, flushAfter: number): void {
  const [out, x, w, bias, inDim, outStride, xStride, wStride, xScale, wScale] = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9];
  const vectorEnd = code.addLocal(i32);
  const blockEnd = code.addLocal(i32);
  const k = code.addLocal(i32);
  const tail = code.addLocal(i32);
  const rowPointers = Array.from({ length: rows }, () => code.addLocal(i32));
  const columnPointers = Array.from({ length: columns }, () => code.addLocal(i32));
  const sums = Array.from({ length: rows }, () => Array.from({ length: columns }, () => code.addLocal(v128)));
  const totals = Array.from({ length: rows }, () => Array.from({ length: columns }, () => code.addLocal(v128)));
  const weightVectors = Array.from({ length: columns }, () => code.addLocal(v128));
  const input = code.addLocal(v128);
  const factor = code.addLocal(v128);
  const sum = code.addLocal(f32);

  code.localGet(inDim).i32Const(~7).i32And().localSet(vectorEnd);
  emitPointers(code, rowPointers, x, xStride);
  emitPointers(code, columnPointers, w, wStride);

  // Step 1 (locals start at zero): `kEnd`'s elements, each lane's i32 sum then added into float32.
  const sweep = (kEnd: number) => {
    code.loop(() => {
      columnPointers.forEach((pointer, column) => code.localGet(pointer).localGet(k).i32Add().v128Load8x8S().localSet(weightVectors[column]!));
      rowPointers.forEach((pointer, row) => {
        code.localGet(pointer).localGet(k).i32Const(1).i32Shl().i32Add().v128Load().localSet(input);
        weightVectors.forEach((weights, column) => {
          const lanes = sums[row]![column]!;
          code.localGet(lanes).localGet(input).localGet(weights).i32x4DotI16x8S().i32x4Add().localSet(lanes);
        });
      });
      code.addTo(k, 8).localGet(k).localGet(kEnd).i32LtU().brIf(0);
    });
  };
  const flush = (first: boolean) =>
    sums.forEach((row, index) =>
      row.forEach((lanes, column) => {
        const total = totals[index]![column]!;
        if (first) code.localGet(lanes).f32x4ConvertI32x4S().localSet(total);
        else code.localGet(total).localGet(lanes).f32x4ConvertI32x4S().f32x4Add().localSet(total);
        code.i32x4Const(0).localSet(lanes);
      }),
    );
  // Up to `flushAfter` elements one sweep, with no float32 sums live in the loop (they would take
  // registers the tile needs); past it, blocks of `flushAfter`.
  code.localGet(vectorEnd).if(() => {
    code
      .localGet(vectorEnd)
      .i32Const(flushAfter)
      .i32LeU()
      .ifElse(
        () => {
          sweep(vectorEnd);
          flush(true);
        },
        () => {
          code.while(
            () => code.localGet(k).localGet(vectorEnd).i32LtU(),
            () => {
              // blockEnd = min(vectorEnd, k + flushAfter)
              code.localGet(vectorEnd).localGet(k).i32Const(flushAfter).i32Add().localTee(blockEnd);
              code.localGet(vectorEnd).localGet(blockEnd).i32LtU().select().localSet(blockEnd);
              sweep(blockEnd);
              flush(false);
            },
          );
        },
      );
  });

  // Step 3's exact i32 sum over the last inDim % 8 elements, into `tail`.
  const tailSum = (row: number, column: number) => {
    code.i32Const(0).localSet(tail).localGet(vectorEnd).localSet(k);
    code.while(
      () => code.localGet(k).localGet(inDim).i32LtU(),
      () => {
        code.localGet(tail);
        code.localGet(rowPointers[row]!).localGet(k).i32Const(1).i32Shl().i32Add().i32Load16S();
        code.localGet(columnPointers[column]!).localGet(k).i32Add().i32Load8S();
        code.i32Mul().i32Add().localSet(tail).addTo(k, 1);
      },
    );
  };
  const outputAddress = (row: number) => emitOutputAddress(code, out, outStride, row);
  const scaleOf = (row: number) => code.localGet(xScale).f32Load(row * 4);
  // Steps 3 and 4 for one output whose step-2 sum `pushSum` pushes, its factor in `factor`'s lane `lane`; then stores it.
  const finishScalar = (row: number, column: number, lane: number, pushSum: () => void) => {
    tailSum(row, column);
    pushSum();
    code.localGet(tail).f32ConvertI32S().f32Add();
    code.localGet(factor).f32x4ExtractLane(lane).f32Mul().localSet(sum);
    code.localGet(bias).if(() => {
      code
        .localGet(sum)
        .localGet(bias)
        .f32Load(column * 4)
        .f32Add()
        .localSet(sum);
    });
    outputAddress(row);
    code.localGet(sum).f32Store(column * 4);
  };

  for (let row = 0; row < rows; row++) {
    const lanes = totals[row]!;
    if (columns === 1) {
      // factor = xScale · wScale, in lane 0.
      scaleOf(row).localGet(wScale).f32Load().f32Mul().f32x4Splat().localSet(factor);
      finishScalar(row, 0, 0, () => emitLaneSum(code, lanes[0]!));
      continue;
    }
    // Step 2 for four outputs a..d, in `a`; their factors `xScale · wScale[a..d]`.
    emitFourLaneSums(code, lanes);
    const a = lanes[0]!;
    scaleOf(row).f32x4Splat().localGet(wScale).v128Load().f32x4Mul().localSet(factor);
    const storeVector = () => {
      code.localGet(a).localGet(factor).f32x4Mul().localSet(a);
      code.localGet(bias).if(() => code.localGet(a).localGet(bias).v128Load().f32x4Add().localSet(a));
      outputAddress(row);
      code.localGet(a).v128Store();
    };
    // With a tail, each output on its own (step 3); without, the four at once.
    const storeEach = () => [0, 1, 2, 3].forEach((column) => finishScalar(row, column, column, () => code.localGet(a).f32x4ExtractLane(column)));
    code.localGet(inDim).localGet(vectorEnd).i32Ne().ifElse(storeEach, storeVector);
  }
}

/** The `rowBlock` argument of `matmulQ8` for rows of `inDim` i16: about half the L1 cache, as the float32 kernel's. */
export function matmulQ8RowBlock(inDim: number): number {
  return Math.max(1, Math.floor((24 * 1024) / (quantizedRowBytes(inDim) * TILE_ROWS))) * TILE_ROWS;
}

/** The `columnBlock` argument of `matmulQ8` for int8 rows of `inDim`: about 1 MiB of weights (a multiple of 4). */
export function matmulQ8ColumnBlock(inDim: number): number {
  return Math.max(1, Math.floor((1024 * 1024) / (inDim * 4))) * 4;
}
