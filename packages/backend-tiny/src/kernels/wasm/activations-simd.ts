import { valueType, type CodeEmitter } from './code-emitter.js';
import { emitExp, expTemporaries } from './exp-simd.js';
import type { WasmModuleBuilder } from './wasm-module-builder.js';

const { i32, f32, v128 } = valueType;

/** Pushes `base + k` and loads from it: a whole vector, or one float splatted to all lanes. */
type Load = (base: number) => void;

/** Stores the vector `value` pushes at `base + k`: all four lanes, or lane 0 alone. */
type Store = (base: number, value: () => void) => void;

/**
 * Loops `k` (bytes) over `count` floats four at a time, then one at a time. A single float is
 * splatted into a vector, run through the same code, and lane 0 kept, so an element gets the
 * same bits wherever it falls. `body(load, store, vector)` is emitted twice, for each loop;
 * `betweenLoops` runs after the vector loop.
 */
export function forEachVector(code: CodeEmitter, count: number, body: (load: Load, store: Store, vector: boolean) => void, betweenLoops?: () => void): void {
  const k = code.addLocal(i32);
  const end = code.addLocal(i32);
  const vectorEnd = code.addLocal(i32);
  code.i32Const(0).localSet(k);
  code.localGet(count).i32Const(2).i32Shl().localTee(end).i32Const(~15).i32And().localSet(vectorEnd);
  code.while(
    () => code.localGet(k).localGet(vectorEnd).i32LtU(),
    () => {
      body(
        (base) => code.localGet(base).localGet(k).i32Add().v128Load(),
        (base, value) => {
          code.localGet(base).localGet(k).i32Add();
          value();
          code.v128Store();
        },
        true,
      );
      code.addTo(k, 16);
    },
  );
  betweenLoops?.();
  code.while(
    () => code.localGet(k).localGet(end).i32LtU(),
    () => {
      body(
        (base) => code.localGet(base).localGet(k).i32Add().v128Load32Splat(),
        (base, value) => {
          code.localGet(base).localGet(k).i32Add();
          value();
          code.f32x4ExtractLane(0).f32Store();
        },
        false,
      );
      code.addTo(k, 4);
    },
  );
}

/**
 * Adds `gatedSilu(gate, up, count)`: `gate[i] = gate[i] / (1 + e^-gate[i]) · up[i]`, the
 * SwiGLU activation of Llama's MLP, in float32.
 */
export function addGatedSilu(builder: WasmModuleBuilder): void {
  builder.addFunction('gatedSilu', [i32, i32, i32], [], (code) => {
    const [gate, up, count] = [0, 1, 2];
    const value = code.addLocal(v128);
    const temporaries = expTemporaries(code);
    forEachVector(code, count, (load, store) => {
      store(gate, () => {
        load(gate);
        code.localTee(value).localGet(value).f32x4Neg();
        emitExp(code, temporaries);
        code.f32x4Const(1).f32x4Add().f32x4Div();
        load(up);
        code.f32x4Mul();
      });
    });
  });
}

/**
 * Adds `softmaxRows(scores, rows, rowStride, firstVisible, scale)`: row `q` (at
 * `scores + q·rowStride` bytes) has `firstVisible + q` visible scores, replaced by
 * `softmax(scale · scores)`; the rest of the row is left as it is (the attention product reads
 * only visible keys). Float32 throughout: the maximum, `e^(scale·(s - max))`, their sum (four
 * lane sums, added as `(l0 + l1) + (l2 + l3)`, then the tail), then a product with `1 / sum`.
 * A row's result depends only on its visible scores.
 */
export function addSoftmaxRows(builder: WasmModuleBuilder): void {
  builder.addFunction('softmaxRows', [i32, i32, i32, i32, f32], [], (code) => {
    const [scores, rows, rowStride, firstVisible, scale] = [0, 1, 2, 3, 4];
    const q = code.addLocal(i32);
    const row = code.addLocal(i32);
    const visible = code.addLocal(i32);
    const maximum = code.addLocal(v128);
    const scaleVector = code.addLocal(v128);
    const laneSums = code.addLocal(v128);
    const total = code.addLocal(f32);
    const factor = code.addLocal(v128);
    const temporaries = expTemporaries(code);
    code.localGet(scale).f32x4Splat().localSet(scaleVector);

    code.while(
      () => code.localGet(q).localGet(rows).i32LtU(),
      () => {
        code.localGet(scores).localGet(q).localGet(rowStride).i32Mul().i32Add().localSet(row);
        code.localGet(firstVisible).localGet(q).i32Add().localSet(visible);

        code.f32x4Const(-Infinity).localSet(maximum);
        forEachVector(code, visible, (load) => {
          code.localGet(maximum);
          load(row);
          code.f32x4Pmax().localSet(maximum);
        });
        // Every lane gets the maximum of the four.
        for (const lanes of [
          [2, 3, 0, 1],
          [1, 0, 3, 2],
        ] as const) {
          code.localGet(maximum).localGet(maximum).localGet(maximum).f32x4Shuffle(lanes).f32x4Pmax().localSet(maximum);
        }

        // Numerators, summed in four lanes, then the lanes added, then the tail.
        code.f32x4Const(0).localSet(laneSums);
        forEachVector(
          code,
          visible,
          (load, store, vector) => {
            store(row, () => {
              load(row);
              code.localGet(maximum).f32x4Sub().localGet(scaleVector).f32x4Mul();
              emitExp(code, temporaries);
            });
            if (vector) {
              code.localGet(laneSums);
              load(row);
              code.f32x4Add().localSet(laneSums);
            } else {
              code.localGet(total);
              load(row);
              code.f32x4ExtractLane(0).f32Add().localSet(total);
            }
          },
          () => {
            code.localGet(laneSums).f32x4ExtractLane(0).localGet(laneSums).f32x4ExtractLane(1).f32Add();
            code.localGet(laneSums).f32x4ExtractLane(2).localGet(laneSums).f32x4ExtractLane(3).f32Add();
            code.f32Add().localSet(total);
          },
        );
        code.f32Const(1).localGet(total).f32Div().f32x4Splat().localSet(factor);
        forEachVector(code, visible, (load, store) => {
          store(row, () => {
            load(row);
            code.localGet(factor).f32x4Mul();
          });
        });
        code.addTo(q, 1);
      },
    );
  });
}
