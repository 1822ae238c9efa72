import { rmsNorm } from '../model/rms-norm.js';

/*
 * RMSNorm `y = x·r·w` with `r = 1/sqrt(mean(x²) + eps)`, row by row, with its tangent (forward
 * mode), its backward pass and the backward pass's tangent (for Hessian-vector products).
 * Tangents left null are zero.
 */

/** The forward pass of the model (`model/rms-norm.ts`, so the values match it bit for bit), keeping each row's `r`. */
export function rmsNormForward(out: Float32Array, roots: Float64Array, x: Float32Array, weight: Float32Array, rows: number, width: number, eps: number): void {
  rmsNorm(out, 0, x, 0, weight, rows, width, eps);
  for (let row = 0; row < rows; row++) {
    let sumOfSquares = 0;
    for (let index = 0; index < width; index++) {
      const value = x[row * width + index]!;
      sumOfSquares += value * value;
    }
    roots[row] = 1 / Math.sqrt(sumOfSquares / width + eps);
  }
}

/** `r' = -r³·Σ x·x' / n` and `y' = (x'·r + x·r')·w + x·r·w'`. */
export function rmsNormTangent(
  outTangent: Float32Array,
  rootTangents: Float64Array,
  x: Float32Array,
  xTangent: Float32Array | null,
  roots: Float64Array,
  weight: Float32Array,
  weightTangent: Float32Array | null,
  rows: number,
  width: number,
): void {
  for (let row = 0; row < rows; row++) {
    const base = row * width;
    const root = roots[row]!;
    let dot = 0;
    if (xTangent) for (let index = 0; index < width; index++) dot += x[base + index]! * xTangent[base + index]!;
    const rootTangent = (-root * root * root * dot) / width;
    rootTangents[row] = rootTangent;
    for (let index = 0; index < width; index++) {
      const value = x[base + index]!;
      let tangent = (xTangent ? xTangent[base + index]! * root : 0) + value * rootTangent;
      tangent *= weight[index]!;
      if (weightTangent) tangent += value * root * weightTangent[index]!;
      outTangent[base + index] = tangent;
    }
  }
}

/** `dw += Σ dy·x·r`; `dx += r·g - r³·x·(Σ g·x)/n` with `g = dy·w`. */
export function rmsNormBackward(
  dx: Float32Array,
  dWeight: Float32Array | null,
  dy: Float32Array,
  x: Float32Array,
  roots: Float64Array,
  weight: Float32Array,
  rows: number,
  width: number,
): void {
  for (let row = 0; row < rows; row++) {
    const base = row * width;
    const root = roots[row]!;
    let dot = 0;
    for (let index = 0; index < width; index++) dot += dy[base + index]! * weight[index]! * x[base + index]!;
    const correction = (root * root * root * dot) / width;
    for (let index = 0; index < width; index++) {
      const value = x[base + index]!;
      const upstream = dy[base + index]!;
      dx[base + index] = dx[base + index]! + root * upstream * weight[index]! - correction * value;
      if (dWeight) dWeight[index] = dWeight[index]! + upstream * value * root;
    }
  }
}

/** The tangent of `rmsNormBackward`: adds `dx'` and `dw'` given the primal and tangent inputs. */
export function rmsNormBackwardTangent(
  dxTangent: Float32Array,
  dWeightTangent: Float32Array | null,
  dy: Float32Array,
  dyTangent: Float32Array | null,
  x: Float32Array,
  xTangent: Float32Array | null,
  roots: Float64Array,
  rootTangents: Float64Array,
  weight: Float32Array,
  weightTangent: Float32Array | null,
  rows: number,
  width: number,
): void {
  for (let row = 0; row < rows; row++) {
    const base = row * width;
    const root = roots[row]!;
    const rootTangent = rootTangents[row]!;
    let dot = 0;
    let dotTangent = 0;
    for (let index = 0; index < width; index++) {
      const value = x[base + index]!;
      const upstream = dy[base + index]!;
      const g = upstream * weight[index]!;
      const gTangent = (dyTangent ? dyTangent[base + index]! * weight[index]! : 0) + (weightTangent ? upstream * weightTangent[index]! : 0);
      dot += g * value;
      dotTangent += gTangent * value + (xTangent ? g * xTangent[base + index]! : 0);
    }
    const cube = root * root * root;
    for (let index = 0; index < width; index++) {
      const value = x[base + index]!;
      const valueTangent = xTangent ? xTangent[base + index]! : 0;
      const upstream = dy[base + index]!;
      const upstreamTangent = dyTangent ? dyTangent[base + index]! : 0;
      const g = upstream * weight[index]!;
      const gTangent = upstreamTangent * weight[index]! + (weightTangent ? upstream * weightTangent[index]! : 0);
      const tangent =
        rootTangent * g + root * gTangent - (3 * root * root * rootTangent * value * dot + cube * valueTangent * dot + cube * value * dotTangent) / width;
      dxTangent[base + index] = dxTangent[base + index]! + tangent;
      if (dWeightTangent) {
        dWeightTangent[index] = dWeightTangent[index]! + upstreamTangent * value * root + upstream * valueTangent * root + upstream * value * rootTangent;
      }
    }
  }
}
