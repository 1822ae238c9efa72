import { forEachVector } from './activations-simd.js';
import { valueType, type CodeEmitter } from './code-emitter.js';
import type { WasmModuleBuilder } from './wasm-module-builder.js';

const { i32, f32, v128 } = valueType;

/** Stores 0 in the floats `from..to` (exclusive) of the row at `row`. */
function zeroTail(code: CodeEmitter, row: number, from: number, to: number): void {
  const column = code.addLocal(i32);
  code.localGet(from).localSet(column);
  code.while(
    () => code.localGet(column).localGet(to).i32LtU(),
    () => {
      code.localGet(row).localGet(column).i32Const(2).i32Shl().i32Add().f32Const(0).f32Store();
      code.addTo(column, 1);
    },
  );
}

/**
 * Adds `maskAboveDiagonal(matrix, rows, rowStride)`: zeroes every entry of row `q` past column
 * `q` (the keys a causal query does not see), for the products that run over the full square.
 */
export function addMaskAboveDiagonal(builder: WasmModuleBuilder): void {
  builder.addFunction('maskAboveDiagonal', [i32, i32, i32], [], (code) => {
    const [matrix, rows, rowStride] = [0, 1, 2];
    const q = code.addLocal(i32);
    const row = code.addLocal(i32);
    const visible = code.addLocal(i32);
    code.while(
      () => code.localGet(q).localGet(rows).i32LtU(),
      () => {
        code.localGet(matrix).localGet(q).localGet(rowStride).i32Mul().i32Add().localSet(row);
        code.localGet(q).i32Const(1).i32Add().localSet(visible);
        zeroTail(code, row, visible, rows);
        code.addTo(q, 1);
      },
    );
  });
}

/**
 * Adds `causalSoftmaxBackward(dScores, probabilities, rows, rowStride, scale)`, backpropagation
 * through `P = softmax(scale·S)` with the causal mask: row `q` of `dScores` holds `dP` on entry
 * and `scale·P⊙(dP - Σ P⊙dP)` over its `q + 1` visible entries on exit, zeros past them. The
 * sum is four lane sums added `(l0 + l1) + (l2 + l3)`, then the tail, in float32.
 */
export function addCausalSoftmaxBackward(builder: WasmModuleBuilder): void {
  builder.addFunction('causalSoftmaxBackward', [i32, i32, i32, i32, f32], [], (code) => {
    const [dScores, probabilities, rows, rowStride, scale] = [0, 1, 2, 3, 4];
    const q = code.addLocal(i32);
    const dRow = code.addLocal(i32);
    const pRow = code.addLocal(i32);
    const visible = code.addLocal(i32);
    const laneSums = code.addLocal(v128);
    const total = code.addLocal(f32);
    const totalVector = code.addLocal(v128);
    const scaleVector = code.addLocal(v128);
    code.localGet(scale).f32x4Splat().localSet(scaleVector);
    code.while(
      () => code.localGet(q).localGet(rows).i32LtU(),
      () => {
        code.localGet(q).localGet(rowStride).i32Mul().localTee(dRow).localGet(probabilities).i32Add().localSet(pRow);
        code.localGet(dRow).localGet(dScores).i32Add().localSet(dRow);
        code.localGet(q).i32Const(1).i32Add().localSet(visible);
        code.f32x4Const(0).localSet(laneSums);
        code.f32Const(0).localSet(total);
        forEachVector(
          code,
          visible,
          (load, _store, vector) => {
            if (vector) {
              code.localGet(laneSums);
              load(pRow);
              load(dRow);
              code.f32x4Mul().f32x4Add().localSet(laneSums);
            } else {
              code.localGet(total);
              load(pRow);
              load(dRow);
              code.f32x4Mul().f32x4ExtractLane(0).f32Add().localSet(total);
            }
          },
          () => {
            code.localGet(laneSums).f32x4ExtractLane(0).localGet(laneSums).f32x4ExtractLane(1).f32Add();
            code.localGet(laneSums).f32x4ExtractLane(2).localGet(laneSums).f32x4ExtractLane(3).f32Add();
            code.f32Add().localSet(total);
          },
        );
        code.localGet(total).f32x4Splat().localSet(totalVector);
        forEachVector(code, visible, (load, store) => {
          store(dRow, () => {
            load(dRow);
            code.localGet(totalVector).f32x4Sub();
            load(pRow);
            code.f32x4Mul().localGet(scaleVector).f32x4Mul();
          });
        });
        zeroTail(code, dRow, visible, rows);
        code.addTo(q, 1);
      },
    );
  });
}
