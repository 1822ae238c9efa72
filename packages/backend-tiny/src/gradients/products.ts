import type { KernelSet } from '../kernels/kernel-set.js';
import { addInto, transposeInto } from './tensor-ops.js';

/**
 * The three products a linear layer's forward, backward and tangent passes need, on a kernel
 * set: its own `matmul` and `matmulTransposedLeft` when it has them, else `matmulTransposed`
 * over transposed copies.
 */
export interface Products {
  /** `out[rows, outDim] = x · wᵀ (+ bias)`, `w` stored `[outDim, inDim]`. */
  linear(out: Float32Array, x: Float32Array, w: Float32Array, rows: number, inDim: number, outDim: number, bias?: Float32Array): void;
  /** `out[rows, outDim] (+)= x · w`, `w` stored `[inDim, outDim]`. */
  matmul(out: Float32Array, x: Float32Array, w: Float32Array, rows: number, inDim: number, outDim: number, accumulate: boolean): void;
  /** `out[aDim, bDim] (+)= aᵀ · b` over `rows`. */
  matmulTransposedLeft(out: Float32Array, a: Float32Array, b: Float32Array, rows: number, aDim: number, bDim: number, accumulate: boolean): void;
}

export function productsOf(kernels: KernelSet): Products {
  const linear: Products['linear'] = (out, x, w, rows, inDim, outDim, bias) => kernels.matmulTransposed(out, x, w, rows, inDim, outDim, bias);
  const throughTransposed = (out: Float32Array, compute: (target: Float32Array) => void, length: number, accumulate: boolean) => {
    if (!accumulate) return compute(out);
    const partial = new Float32Array(length);
    compute(partial);
    addInto(out, partial, length);
  };
  const matmul: Products['matmul'] = kernels.matmul
    ? (out, x, w, rows, inDim, outDim, accumulate) => kernels.matmul!(out, x, w, rows, inDim, outDim, accumulate)
    : (out, x, w, rows, inDim, outDim, accumulate) => {
        const transposed = transposeInto(new Float32Array(inDim * outDim), w, inDim, outDim);
        throughTransposed(out, (target) => kernels.matmulTransposed(target, x, transposed, rows, inDim, outDim), rows * outDim, accumulate);
      };
  const matmulTransposedLeft: Products['matmulTransposedLeft'] = kernels.matmulTransposedLeft
    ? (out, a, b, rows, aDim, bDim, accumulate) => kernels.matmulTransposedLeft!(out, a, b, rows, aDim, bDim, accumulate)
    : (out, a, b, rows, aDim, bDim, accumulate) => {
        const aTransposed = transposeInto(new Float32Array(rows * aDim), a, rows, aDim);
        const bTransposed = transposeInto(new Float32Array(rows * bDim), b, rows, bDim);
        throughTransposed(out, (target) => kernels.matmulTransposed(target, aTransposed, bTransposed, aDim, rows, bDim), aDim * bDim, accumulate);
      };
  return { linear, matmul, matmulTransposedLeft };
}

/** `out = x·Wᵀ`'s tangent: `x'·Wᵀ + x·W'ᵀ + b'`, each term left out when its tangent is null. */
export function linearTangent(
  products: Products,
  out: Float32Array,
  x: Float32Array,
  xTangent: Float32Array | null,
  w: Float32Array,
  wTangent: Float32Array | null,
  biasTangent: Float32Array | null,
  rows: number,
  inDim: number,
  outDim: number,
): void {
  const length = rows * outDim;
  if (xTangent) products.linear(out, xTangent, w, rows, inDim, outDim);
  else out.fill(0, 0, length);
  if (wTangent || biasTangent) {
    const term = new Float32Array(length);
    if (wTangent) products.linear(term, x, wTangent, rows, inDim, outDim, biasTangent ?? undefined);
    else for (let row = 0; row < rows; row++) term.set(biasTangent!, row * outDim);
    addInto(out, term, length);
  }
}

/**
 * Backpropagation through `y = x·Wᵀ + b`: `dx (+)= dy·W`, `dW += dyᵀ·x`, `db += Σ dy`
 * (each skipped when its target is null).
 */
export function linearBackward(
  products: Products,
  dy: Float32Array,
  x: Float32Array,
  w: Float32Array,
  rows: number,
  inDim: number,
  outDim: number,
  dx: Float32Array | null,
  accumulateDx: boolean,
  dw: Float32Array | null,
  db: Float32Array | null,
): void {
  if (dx) products.matmul(dx, dy, w, rows, outDim, inDim, accumulateDx);
  if (dw) products.matmulTransposedLeft(dw, dy, x, rows, outDim, inDim, true);
  if (db) addRowSums(db, dy, rows, outDim);
}

/**
 * The tangent of `linearBackward` (Pearlmutter's R-operator): `dx' (+)= dy'·W + dy·W'`,
 * `dW' += dy'ᵀ·x + dyᵀ·x'`, `db' += Σ dy'`; null tangents are zero.
 */
export function linearBackwardTangent(
  products: Products,
  dy: Float32Array,
  dyTangent: Float32Array | null,
  x: Float32Array,
  xTangent: Float32Array | null,
  w: Float32Array,
  wTangent: Float32Array | null,
  rows: number,
  inDim: number,
  outDim: number,
  dxTangent: Float32Array | null,
  accumulateDx: boolean,
  dwTangent: Float32Array | null,
  dbTangent: Float32Array | null,
): void {
  if (dxTangent) {
    let accumulate = accumulateDx;
    if (dyTangent) {
      products.matmul(dxTangent, dyTangent, w, rows, outDim, inDim, accumulate);
      accumulate = true;
    }
    if (wTangent) {
      products.matmul(dxTangent, dy, wTangent, rows, outDim, inDim, accumulate);
      accumulate = true;
    }
    if (!accumulate) dxTangent.fill(0, 0, rows * inDim);
  }
  if (dwTangent) {
    if (dyTangent) products.matmulTransposedLeft(dwTangent, dyTangent, x, rows, outDim, inDim, true);
    if (xTangent) products.matmulTransposedLeft(dwTangent, dy, xTangent, rows, outDim, inDim, true);
  }
  if (dbTangent && dyTangent) addRowSums(dbTangent, dyTangent, rows, outDim);
}

/** `target[c] += Σ_r values[r, c]`, summed in float64. */
export function addRowSums(target: Float32Array, values: Float32Array, rows: number, width: number): void {
  for (let column = 0; column < width; column++) {
    let sum = 0;
    for (let row = 0; row < rows; row++) sum += values[row * width + column]!;
    target[column] = target[column]! + sum;
  }
}
