/**
 * The two products backpropagation through `y = x·Wᵀ` needs, in scalar TypeScript:
 * `dx = dy·W` (`matmul`) and `dW = dyᵀ·x` (`matmulTransposedLeft`).
 *
 * Both are `out[m, n] (+)= Σ_k a(m, k)·b[k, n]` with `b` row-major; they differ in how `a` is
 * laid out. Every output is one float64 sum over `k` in ascending order (started from the
 * stored value when accumulating), rounded to float32 once, so an output row depends on its row
 * of `a` alone. A zero `a(m, k)` is skipped (its terms are exact zeros for finite `b`), which
 * halves the work on causal attention's masked probabilities.
 */
function productRowMajorB(
  out: Float32Array,
  a: Float32Array,
  b: Float32Array,
  rows: number,
  depth: number,
  columns: number,
  aRowStride: number,
  aDepthStride: number,
  accumulate: boolean,
): void {
  const sums = new Float64Array(columns);
  for (let row = 0; row < rows; row++) {
    const target = row * columns;
    if (accumulate) for (let column = 0; column < columns; column++) sums[column] = out[target + column]!;
    else sums.fill(0);
    for (let k = 0; k < depth; k++) {
      const factor = a[row * aRowStride + k * aDepthStride]!;
      if (factor === 0) continue;
      const source = k * columns;
      for (let column = 0; column < columns; column++) sums[column] = sums[column]! + factor * b[source + column]!;
    }
    for (let column = 0; column < columns; column++) out[target + column] = sums[column]!;
  }
}

/** `out[rows, outDim] (+)= x[rows, inDim] · w[inDim, outDim]`, all row-major. */
export function matmul(out: Float32Array, x: Float32Array, w: Float32Array, rows: number, inDim: number, outDim: number, accumulate = false): void {
  productRowMajorB(out, x, w, rows, inDim, outDim, inDim, 1, accumulate);
}

/** `out[aDim, bDim] (+)= a[rows, aDim]ᵀ · b[rows, bDim]`, all row-major: a sum over the rows. */
export function matmulTransposedLeft(out: Float32Array, a: Float32Array, b: Float32Array, rows: number, aDim: number, bDim: number, accumulate = false): void {
  productRowMajorB(out, a, b, aDim, rows, bDim, 1, aDim, accumulate);
}
