import type { CodeEmitter } from './code-emitter.js';

/**
 * Pieces the register tiles of the float32 and the integer products share, so that both reduce
 * their lanes in one order (the one `matmul-simd.ts` documents).
 */

/** `locals[i] = first + i · stride`: the tile's row (or column) pointers. */
export function emitPointers(code: CodeEmitter, locals: readonly number[], first: number, stride: number): void {
  locals.forEach((local, index) => {
    if (index === 0) code.localGet(first);
    else
      code
        .localGet(locals[index - 1]!)
        .localGet(stride)
        .i32Add();
    code.localSet(local);
  });
}

/**
 * Step 2 for four outputs a..d whose lane sums are in the f32x4 locals `lanes`:
 * [a0+a1, a2+a3, b0+b1, b2+b3] and [c0+c1, c2+c3, d0+d1, d2+d3], then
 * [a0+a1, b0+b1, c0+c1, d0+d1] + [a2+a3, b2+b3, c2+c3, d2+d3], left in `lanes[0]`.
 */
export function emitFourLaneSums(code: CodeEmitter, lanes: readonly number[]): void {
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
}

/** Step 2 for one output: pushes `(lane0 + lane1) + (lane2 + lane3)` of the f32x4 local `lane`. */
export function emitLaneSum(code: CodeEmitter, lane: number): void {
  code.localGet(lane).f32x4ExtractLane(0).localGet(lane).f32x4ExtractLane(1).f32Add();
  code.localGet(lane).f32x4ExtractLane(2).localGet(lane).f32x4ExtractLane(3).f32Add();
  code.f32Add();
}

/** Pushes the address of row `row`'s outputs: `out + row · outStride`. */
export function emitOutputAddress(code: CodeEmitter, out: number, outStride: number, row: number): void {
  code.localGet(out);
  if (row > 0) code.localGet(outStride).i32Const(row).i32Mul().i32Add();
}
