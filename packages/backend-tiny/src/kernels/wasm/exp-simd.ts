import { valueType, type CodeEmitter } from './code-emitter.js';

/** Declares the two v128 temporaries `emitExp` needs in the function being written. */
export function expTemporaries(code: CodeEmitter): { reduced: number; exponent: number } {
  return { reduced: code.addLocal(valueType.v128), exponent: code.addLocal(valueType.v128) };
}

/**
 * Pops an f32x4 `x` and pushes `e^x`, lane by lane: Cephes' `expf` (Cody-Waite reduction
 * `x = n·ln2 + r`, a degree-7 polynomial for `e^r`, and `2^n` built in the exponent bits),
 * relative error below 2e-7. Inputs are clamped to [-87.3, 88]: below, the result is
 * 2^-126 (≈1.2e-38) instead of smaller; above, e^88 instead of overflowing.
 * Every lane is computed alike, so a value gets the same bits in any lane.
 */
export function emitExp(code: CodeEmitter, temporaries: { reduced: number; exponent: number }): void {
  const { reduced: r, exponent: n } = temporaries;
  // 1.5·2^23: adding it rounds a float below 2^22 in magnitude to an integer (ties to even),
  // which then sits in the low mantissa bits.
  const roundingShift = 12_582_912;
  code.f32x4Const(88).f32x4Pmin().f32x4Const(-87.33654).f32x4Pmax().localSet(r);
  code.localGet(r).f32x4Const(Math.LOG2E).f32x4Mul().f32x4Const(roundingShift).f32x4Add().localSet(n);
  // r = x - n·ln2, with ln2 split in two so that n·C1 is exact.
  code.localGet(r).localGet(n).f32x4Const(roundingShift).f32x4Sub().localTee(n);
  code.f32x4Const(0.693359375).f32x4Mul().f32x4Sub();
  code.localGet(n).f32x4Const(-2.1219444e-4).f32x4Mul().f32x4Sub().localSet(r);
  // e^r ≈ 1 + r + r²·P(r)
  code.f32x4Const(1.98756915e-4);
  for (const coefficient of [1.3981999507e-3, 8.3334519073e-3, 4.1665795894e-2, 1.6666665459e-1, 5.0000001201e-1]) {
    code.localGet(r).f32x4Mul().f32x4Const(coefficient).f32x4Add();
  }
  code.localGet(r).f32x4Mul().localGet(r).f32x4Mul().localGet(r).f32x4Add().f32x4Const(1).f32x4Add();
  // · 2^n: n + 127 in the exponent field. The bits of n + 1.5·2^23 are 0x4b400000 + n.
  code
    .localGet(n)
    .f32x4Const(roundingShift)
    .f32x4Add()
    .i32x4Const(127 - 0x4b400000)
    .i32x4Add()
    .i32Const(23)
    .i32x4Shl();
  code.f32x4Mul();
}
