/**
 * Rows of `x` handled together while one 4-row tile of `w` stays in L1: large enough to reuse
 * the tile of `w` many times, small enough that the block of `x` fits in L2 for hidden sizes
 * up to a few thousand.
 */
const ROW_BLOCK = 32;

/**
 * `out[rows, outDim] = x[rows, inDim] · w[outDim, inDim]ᵀ (+ bias)`, scalar TypeScript.
 *
 * Both operands are row-major along `inDim`, so every dot product reads two contiguous streams.
 * The main loop keeps a 4×4 register tile (4 rows of `x` against 4 rows of `w`: 8 loads for
 * 16 multiply-adds). Every output is one sum over `k = 0..inDim-1` in ascending order,
 * accumulated in float64 (JavaScript's number) and rounded to float32 once when stored; the
 * edge loops keep that order, so an output does not depend on which tile computed it and a
 * row's result does not depend on its neighbours.
 */
export function matmulTransposed(out: Float32Array, x: Float32Array, w: Float32Array, rows: number, inDim: number, outDim: number, bias?: Float32Array): void {
  for (let blockStart = 0; blockStart < rows; blockStart += ROW_BLOCK) {
    const blockEnd = Math.min(rows, blockStart + ROW_BLOCK);
    const tiledRowEnd = blockStart + ((blockEnd - blockStart) & ~3);
    let column = 0;
    for (; column + 4 <= outDim; column += 4) {
      let row = blockStart;
      for (; row < tiledRowEnd; row += 4) tile4x4(out, x, w, row, column, inDim, outDim, bias);
      for (; row < blockEnd; row++) tile1x4(out, x, w, row, column, inDim, outDim, bias);
    }
    for (; column < outDim; column++) {
      for (let row = blockStart; row < blockEnd; row++) {
        out[row * outDim + column] = dot(x, row * inDim, w, column * inDim, inDim) + (bias ? bias[column]! : 0);
      }
    }
  }
}

function dot(a: Float32Array, aOffset: number, b: Float32Array, bOffset: number, length: number): number {
  let sum = 0;
  for (let k = 0; k < length; k++) sum += a[aOffset + k]! * b[bOffset + k]!;
  return sum;
}

function tile1x4(
  out: Float32Array,
  x: Float32Array,
  w: Float32Array,
  row: number,
  column: number,
  inDim: number,
  outDim: number,
  bias: Float32Array | undefined,
): void {
  const x0 = row * inDim;
  const w0 = column * inDim;
  const w1 = w0 + inDim;
  const w2 = w1 + inDim;
  const w3 = w2 + inDim;
  let s0 = 0;
  let s1 = 0;
  let s2 = 0;
  let s3 = 0;
  for (let k = 0; k < inDim; k++) {
    const a = x[x0 + k]!;
    s0 += a * w[w0 + k]!;
    s1 += a * w[w1 + k]!;
    s2 += a * w[w2 + k]!;
    s3 += a * w[w3 + k]!;
  }
  const o = row * outDim + column;
  out[o] = s0 + (bias ? bias[column]! : 0);
  out[o + 1] = s1 + (bias ? bias[column + 1]! : 0);
  out[o + 2] = s2 + (bias ? bias[column + 2]! : 0);
  out[o + 3] = s3 + (bias ? bias[column + 3]! : 0);
}

function tile4x4(
  out: Float32Array,
  x: Float32Array,
  w: Float32Array,
  row: number,
  column: number,
  inDim: number,
  outDim: number,
  bias: Float32Array | undefined,
): void {
  const x0 = row * inDim;
  const x1 = x0 + inDim;
  const x2 = x1 + inDim;
  const x3 = x2 + inDim;
  const w0 = column * inDim;
  const w1 = w0 + inDim;
  const w2 = w1 + inDim;
  const w3 = w2 + inDim;
  let s00 = 0,
    s01 = 0,
    s02 = 0,
    s03 = 0;
  let s10 = 0,
    s11 = 0,
    s12 = 0,
    s13 = 0;
  let s20 = 0,
    s21 = 0,
    s22 = 0,
    s23 = 0;
  let s30 = 0,
    s31 = 0,
    s32 = 0,
    s33 = 0;
  for (let k = 0; k < inDim; k++) {
    const a0 = x[x0 + k]!;
    const a1 = x[x1 + k]!;
    const a2 = x[x2 + k]!;
    const a3 = x[x3 + k]!;
    const b0 = w[w0 + k]!;
    const b1 = w[w1 + k]!;
    const b2 = w[w2 + k]!;
    const b3 = w[w3 + k]!;
    s00 += a0 * b0;
    s01 += a0 * b1;
    s02 += a0 * b2;
    s03 += a0 * b3;
    s10 += a1 * b0;
    s11 += a1 * b1;
    s12 += a1 * b2;
    s13 += a1 * b3;
    s20 += a2 * b0;
    s21 += a2 * b1;
    s22 += a2 * b2;
    s23 += a2 * b3;
    s30 += a3 * b0;
    s31 += a3 * b1;
    s32 += a3 * b2;
    s33 += a3 * b3;
  }
  const c0 = bias ? bias[column]! : 0;
  const c1 = bias ? bias[column + 1]! : 0;
  const c2 = bias ? bias[column + 2]! : 0;
  const c3 = bias ? bias[column + 3]! : 0;
  let o = row * outDim + column;
  out[o] = s00 + c0;
  out[o + 1] = s01 + c1;
  out[o + 2] = s02 + c2;
  out[o + 3] = s03 + c3;
  o += outDim;
  out[o] = s10 + c0;
  out[o + 1] = s11 + c1;
  out[o + 2] = s12 + c2;
  out[o + 3] = s13 + c3;
  o += outDim;
  out[o] = s20 + c0;
  out[o + 1] = s21 + c1;
  out[o + 2] = s22 + c2;
  out[o + 3] = s23 + c3;
  o += outDim;
  out[o] = s30 + c0;
  out[o + 1] = s31 + c1;
  out[o + 2] = s32 + c2;
  out[o + 3] = s33 + c3;
}
