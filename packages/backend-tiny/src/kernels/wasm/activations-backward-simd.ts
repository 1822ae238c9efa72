import { forEachVector } from './activations-simd.js';
import { valueType } from './code-emitter.js';
import { emitExp, expTemporaries } from './exp-simd.js';
import type { WasmModuleBuilder } from './wasm-module-builder.js';

const { i32, v128 } = valueType;

/**
 * Adds `gatedSiluBackward(dGate, dUp, dh, gate, up, count)`, backpropagation through
 * `h = silu(g)·u`: with `s = 1/(1 + e^-g)`, `dUp = dh·g·s` and `dGate = dh·u·(s + g·s·(1 - s))`,
 * in float32 (the `exp` of `gatedSilu`). The outputs must not overlap the inputs.
 */
export function addGatedSiluBackward(builder: WasmModuleBuilder): void {
  builder.addFunction('gatedSiluBackward', [i32, i32, i32, i32, i32, i32], [], (code) => {
    const [dGate, dUp, dh, gate, up, count] = [0, 1, 2, 3, 4, 5];
    const g = code.addLocal(v128);
    const s = code.addLocal(v128);
    const temporaries = expTemporaries(code);
    forEachVector(code, count, (load, store) => {
      code.f32x4Const(1);
      load(gate);
      code.localTee(g).f32x4Neg();
      emitExp(code, temporaries);
      code.f32x4Const(1).f32x4Add().f32x4Div().localSet(s);
      store(dUp, () => {
        load(dh);
        code.localGet(g).f32x4Mul().localGet(s).f32x4Mul();
      });
      store(dGate, () => {
        load(dh);
        load(up);
        code.f32x4Mul();
        // s + g·s·(1 - s)
        code.localGet(s).localGet(g).localGet(s).f32x4Mul().f32x4Const(1).localGet(s).f32x4Sub().f32x4Mul().f32x4Add();
        code.f32x4Mul();
      });
    });
  });
}
