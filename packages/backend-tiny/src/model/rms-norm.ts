/**
 * RMSNorm over `rows` vectors of `width`: `out = x / sqrt(mean(x²) + eps) * weight`.
 *
 * The mean, the reciprocal root and the products are computed in float64 (JavaScript's
 * number) and each output is rounded to float32 once. Hugging Face computes the same formula
 * in float32, so the two agree to float32 rounding. `out` may be `x` itself.
 */
export function rmsNorm(
  out: Float32Array,
  outOffset: number,
  x: Float32Array,
  xOffset: number,
  weight: Float32Array,
  rows: number,
  width: number,
  eps: number,
): void {
  for (let row = 0; row < rows; row++) {
    const source = xOffset + row * width;
    const target = outOffset + row * width;
    let sumOfSquares = 0;
    for (let index = 0; index < width; index++) {
      const value = x[source + index]!;
      sumOfSquares += value * value;
    }
    const inverseRoot = 1 / Math.sqrt(sumOfSquares / width + eps);
    for (let index = 0; index < width; index++) out[target + index] = x[source + index]! * inverseRoot * weight[index]!;
  }
}
