import type { AttentionShape, KernelSet } from '../kernels/kernel-set.js';
import { attendRow, createAttentionScratch } from '../model/attention.js';
import type { Products } from './products.js';
import { gatherColumns, scatterColumns } from './tensor-ops.js';

/** One row's real tokens inside the packed `[tokens, width]` buffers. */
export interface TokenSpan {
  start: number;
  count: number;
}

/*
 * Causal grouped-query attention over packed rows, per row and head: `S = scale·Q·Kᵀ`,
 * `P = softmax(S)` over the keys each query sees, `O = P·V`. The backward pass recomputes `P`
 * (nothing of size `tokens²` is kept between the passes):
 *   dP = dO·Vᵀ,  dV += Pᵀ·dO,  dS = scale·P⊙(dP - rowsum(P⊙dP)),  dQ = dS·K,  dK += dSᵀ·Q.
 * The tangents (forward mode, and of the backward pass for Hessian-vector products):
 *   S' = scale(Q'·Kᵀ + Q·K'ᵀ),  P' = P⊙(S' - rowsum(P⊙S')),  O' = P'·V + P·V',
 *   dP' = dO'·Vᵀ + dO·V'ᵀ,  dV' += P'ᵀ·dO + Pᵀ·dO',  D' = rowsum(P'⊙dP + P⊙dP'),
 *   dS' = scale(P'⊙(dP - D) + P⊙(dP' - D')),  dQ' = dS'·K + dS·K',  dK' += dS'ᵀ·Q + dSᵀ·Q'.
 * Masked probabilities are exact zeros, so every product may run over the full square.
 */

/** The forward pass, on the model's own `attendRow` (so its values are the backend's). */
export function attentionForward(
  kernels: KernelSet,
  shape: AttentionShape,
  spans: readonly TokenSpan[],
  queries: Float32Array,
  keys: Float32Array,
  values: Float32Array,
  output: Float32Array,
): void {
  const keyWidth = shape.numKvHeads * shape.headDim;
  const longest = spans.reduce((longest, span) => Math.max(longest, span.count), 1);
  const scratch = createAttentionScratch(longest, shape.headDim);
  for (const { start, count } of spans) {
    if (count === 0) continue;
    const rowKeys = keys.subarray(start * keyWidth, (start + count) * keyWidth);
    const rowValues = values.subarray(start * keyWidth, (start + count) * keyWidth);
    attendRow(kernels, shape, queries, output, start, count, 0, rowKeys, rowValues, scratch);
  }
}

/** Tangents of the inputs (null: zero). */
export interface AttentionTangents {
  queries: Float32Array | null;
  keys: Float32Array | null;
  values: Float32Array | null;
}

/** Per-head working buffers, sized once for the longest row. */
class HeadBuffers {
  readonly q: Float32Array;
  readonly k: Float32Array;
  readonly v: Float32Array;
  readonly dO: Float32Array;
  readonly dQ: Float32Array;
  readonly dK: Float32Array;
  readonly dV: Float32Array;
  readonly p: Float32Array;
  readonly dS: Float32Array;
  readonly scratch: Float32Array;
  constructor(length: number, headDim: number) {
    const vector = () => new Float32Array(length * headDim);
    const square = () => new Float32Array(length * length);
    this.q = vector();
    this.k = vector();
    this.v = vector();
    this.dO = vector();
    this.dQ = vector();
    this.dK = vector();
    this.dV = vector();
    this.p = square();
    this.dS = square();
    this.scratch = square();
  }
}

interface AttentionLayout {
  shape: AttentionShape;
  queryWidth: number;
  keyWidth: number;
  headsPerKvHead: number;
  scale: number;
  longest: number;
}

function layoutOf(shape: AttentionShape, spans: readonly TokenSpan[]): AttentionLayout {
  return {
    shape,
    queryWidth: shape.numHeads * shape.headDim,
    keyWidth: shape.numKvHeads * shape.headDim,
    headsPerKvHead: shape.numHeads / shape.numKvHeads,
    scale: 1 / Math.sqrt(shape.headDim),
    longest: spans.reduce((longest, span) => Math.max(longest, span.count), 1),
  };
}

/** `p[count, count] = softmax(scale·q·kᵀ)` with the causal mask (entries above the diagonal exactly 0). */
function causalProbabilities(products: Products, p: Float32Array, q: Float32Array, k: Float32Array, count: number, headDim: number, scale: number): void {
  products.linear(p, q, k, count, headDim, count);
  for (let query = 0; query < count; query++) {
    const base = query * count;
    let maximum = -Infinity;
    for (let key = 0; key <= query; key++) maximum = Math.max(maximum, p[base + key]!);
    let total = 0;
    for (let key = 0; key <= query; key++) {
      const numerator = Math.exp((p[base + key]! - maximum) * scale);
      p[base + key] = numerator;
      total += numerator;
    }
    const inverse = 1 / total;
    for (let key = 0; key <= query; key++) p[base + key] = p[base + key]! * inverse;
    p.fill(0, base + query + 1, base + count);
  }
}

/** `pTangent = P⊙(S' - rowsum(P⊙S'))`, `S' = scale(q'·kᵀ + q·k'ᵀ)`; `scratch` is clobbered. */
function probabilityTangents(
  products: Products,
  pTangent: Float32Array,
  p: Float32Array,
  q: Float32Array,
  qTangent: Float32Array | null,
  k: Float32Array,
  kTangent: Float32Array | null,
  scratch: Float32Array,
  count: number,
  headDim: number,
  scale: number,
): void {
  const squares = count * count;
  if (qTangent) products.linear(pTangent, qTangent, k, count, headDim, count);
  else pTangent.fill(0, 0, squares);
  if (kTangent) {
    products.linear(scratch, q, kTangent, count, headDim, count);
    for (let index = 0; index < squares; index++) pTangent[index] = pTangent[index]! + scratch[index]!;
  }
  for (let query = 0; query < count; query++) {
    const base = query * count;
    let mean = 0;
    for (let key = 0; key <= query; key++) mean += p[base + key]! * pTangent[base + key]!;
    for (let key = 0; key <= query; key++) pTangent[base + key] = p[base + key]! * scale * (pTangent[base + key]! - mean);
    pTangent.fill(0, base + query + 1, base + count);
  }
}

/** The forward tangent `O' = P'·V + P·V'` of every row and head. */
export function attentionTangent(
  products: Products,
  shape: AttentionShape,
  spans: readonly TokenSpan[],
  queries: Float32Array,
  keys: Float32Array,
  values: Float32Array,
  tangents: AttentionTangents,
  outputTangent: Float32Array,
): void {
  const layout = layoutOf(shape, spans);
  const { headDim, numKvHeads } = shape;
  const primal = new HeadBuffers(layout.longest, headDim);
  const tangent = new HeadBuffers(layout.longest, headDim);
  for (const { start, count } of spans) {
    if (count === 0) continue;
    for (let kvHead = 0; kvHead < numKvHeads; kvHead++) {
      const kvOffset = kvHead * headDim;
      gatherColumns(primal.k, keys, start, count, layout.keyWidth, kvOffset, headDim);
      gatherColumns(primal.v, values, start, count, layout.keyWidth, kvOffset, headDim);
      if (tangents.keys) gatherColumns(tangent.k, tangents.keys, start, count, layout.keyWidth, kvOffset, headDim);
      if (tangents.values) gatherColumns(tangent.v, tangents.values, start, count, layout.keyWidth, kvOffset, headDim);
      for (let head = kvHead * layout.headsPerKvHead; head < (kvHead + 1) * layout.headsPerKvHead; head++) {
        const queryOffset = head * headDim;
        gatherColumns(primal.q, queries, start, count, layout.queryWidth, queryOffset, headDim);
        if (tangents.queries) gatherColumns(tangent.q, tangents.queries, start, count, layout.queryWidth, queryOffset, headDim);
        causalProbabilities(products, primal.p, primal.q, primal.k, count, headDim, layout.scale);
        probabilityTangents(
          products,
          tangent.p,
          primal.p,
          primal.q,
          tangents.queries ? tangent.q : null,
          primal.k,
          tangents.keys ? tangent.k : null,
          primal.scratch,
          count,
          headDim,
          layout.scale,
        );
        products.matmul(tangent.dQ, tangent.p, primal.v, count, count, headDim, false);
        if (tangents.values) products.matmul(tangent.dQ, primal.p, tangent.v, count, count, headDim, true);
        scatterColumns(outputTangent, tangent.dQ, start, count, layout.queryWidth, queryOffset, headDim);
      }
    }
  }
}

/** What the backward pass's tangent needs and writes. */
export interface AttentionBackwardTangent extends AttentionTangents {
  dOutput: Float32Array | null;
  /** Written: the tangents of the query, key and value gradients. */
  dQueries: Float32Array;
  dKeys: Float32Array;
  dValues: Float32Array;
}

/**
 * The backward pass: writes `dQueries`, `dKeys`, `dValues` (of the rotated queries and keys)
 * from `dOutput`, and their tangents when `tangent` is given; on the kernel set's
 * `attentionBackwardRow` when it has one and no tangents are wanted.
 */
export function attentionBackward(
  kernels: KernelSet,
  products: Products,
  shape: AttentionShape,
  spans: readonly TokenSpan[],
  queries: Float32Array,
  keys: Float32Array,
  values: Float32Array,
  dOutput: Float32Array,
  dQueries: Float32Array,
  dKeys: Float32Array,
  dValues: Float32Array,
  tangent?: AttentionBackwardTangent,
): void {
  if (!tangent && kernels.attentionBackwardRow) {
    for (const { start, count } of spans) kernels.attentionBackwardRow(shape, queries, keys, values, dOutput, dQueries, dKeys, dValues, start, count);
    return;
  }
  const layout = layoutOf(shape, spans);
  const { headDim, numKvHeads } = shape;
  const { scale } = layout;
  const b = new HeadBuffers(layout.longest, headDim);
  const t = tangent ? new HeadBuffers(layout.longest, headDim) : undefined;
  for (const { start, count } of spans) {
    if (count === 0) continue;
    const squares = count * count;
    const vectors = count * headDim;
    for (let kvHead = 0; kvHead < numKvHeads; kvHead++) {
      const kvOffset = kvHead * headDim;
      gatherColumns(b.k, keys, start, count, layout.keyWidth, kvOffset, headDim);
      gatherColumns(b.v, values, start, count, layout.keyWidth, kvOffset, headDim);
      b.dK.fill(0, 0, vectors);
      b.dV.fill(0, 0, vectors);
      if (tangent && t) {
        if (tangent.keys) gatherColumns(t.k, tangent.keys, start, count, layout.keyWidth, kvOffset, headDim);
        if (tangent.values) gatherColumns(t.v, tangent.values, start, count, layout.keyWidth, kvOffset, headDim);
        t.dK.fill(0, 0, vectors);
        t.dV.fill(0, 0, vectors);
      }
      for (let head = kvHead * layout.headsPerKvHead; head < (kvHead + 1) * layout.headsPerKvHead; head++) {
        const queryOffset = head * headDim;
        gatherColumns(b.q, queries, start, count, layout.queryWidth, queryOffset, headDim);
        gatherColumns(b.dO, dOutput, start, count, layout.queryWidth, queryOffset, headDim);
        causalProbabilities(products, b.p, b.q, b.k, count, headDim, scale);
        // dP = dO·Vᵀ (in dS), dV += Pᵀ·dO.
        products.linear(b.dS, b.dO, b.v, count, headDim, count);
        products.matmulTransposedLeft(b.dV, b.p, b.dO, count, count, headDim, true);
        let dP: Float32Array | undefined;
        let totals: Float64Array | undefined;
        if (t) {
          dP = b.dS.slice(0, squares);
          totals = new Float64Array(count);
        }
        for (let query = 0; query < count; query++) {
          const base = query * count;
          let total = 0;
          for (let key = 0; key <= query; key++) total += b.p[base + key]! * b.dS[base + key]!;
          if (totals) totals[query] = total;
          for (let key = 0; key <= query; key++) b.dS[base + key] = scale * b.p[base + key]! * (b.dS[base + key]! - total);
          b.dS.fill(0, base + query + 1, base + count);
        }
        products.matmul(b.dQ, b.dS, b.k, count, count, headDim, false);
        products.matmulTransposedLeft(b.dK, b.dS, b.q, count, count, headDim, true);
        scatterColumns(dQueries, b.dQ, start, count, layout.queryWidth, queryOffset, headDim);

        if (tangent && t && dP && totals) {
          const hasQuery = tangent.queries !== null;
          const hasKey = tangent.keys !== null;
          const hasValue = tangent.values !== null;
          if (hasQuery) gatherColumns(t.q, tangent.queries!, start, count, layout.queryWidth, queryOffset, headDim);
          if (tangent.dOutput) gatherColumns(t.dO, tangent.dOutput, start, count, layout.queryWidth, queryOffset, headDim);
          // P' (in t.p), dP' = dO'·Vᵀ + dO·V'ᵀ (in t.dS).
          probabilityTangents(products, t.p, b.p, b.q, hasQuery ? t.q : null, b.k, hasKey ? t.k : null, t.scratch, count, headDim, scale);
          if (tangent.dOutput) products.linear(t.dS, t.dO, b.v, count, headDim, count);
          else t.dS.fill(0, 0, squares);
          if (hasValue) {
            products.linear(t.scratch, b.dO, t.v, count, headDim, count);
            for (let index = 0; index < squares; index++) t.dS[index] = t.dS[index]! + t.scratch[index]!;
          }
          // dV' += P'ᵀ·dO + Pᵀ·dO'.
          products.matmulTransposedLeft(t.dV, t.p, b.dO, count, count, headDim, true);
          if (tangent.dOutput) products.matmulTransposedLeft(t.dV, b.p, t.dO, count, count, headDim, true);
          // dS' = scale(P'⊙(dP - D) + P⊙(dP' - D')).
          for (let query = 0; query < count; query++) {
            const base = query * count;
            let totalTangent = 0;
            for (let key = 0; key <= query; key++) totalTangent += t.p[base + key]! * dP[base + key]! + b.p[base + key]! * t.dS[base + key]!;
            const total = totals[query]!;
            for (let key = 0; key <= query; key++) {
              t.dS[base + key] = scale * (t.p[base + key]! * (dP[base + key]! - total) + b.p[base + key]! * (t.dS[base + key]! - totalTangent));
            }
            t.dS.fill(0, base + query + 1, base + count);
          }
          // dQ' = dS'·K + dS·K';  dK' += dS'ᵀ·Q + dSᵀ·Q'.
          products.matmul(t.dQ, t.dS, b.k, count, count, headDim, false);
          if (hasKey) products.matmul(t.dQ, b.dS, t.k, count, count, headDim, true);
          products.matmulTransposedLeft(t.dK, t.dS, b.q, count, count, headDim, true);
          if (hasQuery) products.matmulTransposedLeft(t.dK, b.dS, t.q, count, count, headDim, true);
          scatterColumns(tangent.dQueries, t.dQ, start, count, layout.queryWidth, queryOffset, headDim);
        }
      }
      scatterColumns(dKeys, b.dK, start, count, layout.keyWidth, kvOffset, headDim);
      scatterColumns(dValues, b.dV, start, count, layout.keyWidth, kvOffset, headDim);
      if (tangent && t) {
        scatterColumns(tangent.dKeys, t.dK, start, count, layout.keyWidth, kvOffset, headDim);
        scatterColumns(tangent.dValues, t.dV, start, count, layout.keyWidth, kvOffset, headDim);
      }
    }
  }
}
