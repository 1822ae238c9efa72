import type { KernelSet } from '../kernels/kernel-set.js';

/*
 * Llama's gated activation `h = silu(g)·u`, `silu(g) = g·σ(g)`, element by element, with its
 * tangent, backward pass and the backward pass's tangent. With `s = σ(g)` and `s' = s(1 - s)`:
 * `silu' = s + g·s'` and `silu'' = s'·(2 + g(1 - 2s))`.
 */

/** `h = silu(gate)·up` as the model's MLP computes it (`model/mlp.ts`): on the kernel set's `gatedSilu` when it has one. */
export function gatedSiluForward(kernels: KernelSet, h: Float32Array, gate: Float32Array, up: Float32Array, count: number): void {
  h.set(gate.subarray(0, count));
  if (kernels.gatedSilu) kernels.gatedSilu(h, up, count);
  else {
    for (let index = 0; index < count; index++) {
      const value = h[index]!;
      h[index] = (value / (1 + Math.exp(-value))) * up[index]!;
    }
  }
}

/** `h' = silu'(g)·g'·u + silu(g)·u'`. */
export function gatedSiluTangent(
  hTangent: Float32Array,
  gate: Float32Array,
  up: Float32Array,
  gateTangent: Float32Array | null,
  upTangent: Float32Array | null,
  count: number,
): void {
  for (let index = 0; index < count; index++) {
    const g = gate[index]!;
    const s = 1 / (1 + Math.exp(-g));
    let tangent = 0;
    if (gateTangent) tangent += (s + g * s * (1 - s)) * gateTangent[index]! * up[index]!;
    if (upTangent) tangent += g * s * upTangent[index]!;
    hTangent[index] = tangent;
  }
}

export interface GatedSiluBackwardTangent {
  dhTangent: Float32Array | null;
  gateTangent: Float32Array | null;
  upTangent: Float32Array | null;
  /** Written: the tangents of `dGate` and `dUp`. */
  dGateTangent: Float32Array;
  dUpTangent: Float32Array;
}

/**
 * `dg = dh·u·silu'(g)`, `du = dh·silu(g)` (written, not added), and their tangents when asked;
 * on the kernel set's `gatedSiluBackward` when it has one and no tangents are wanted.
 */
export function gatedSiluBackward(
  kernels: KernelSet,
  dGate: Float32Array,
  dUp: Float32Array,
  dh: Float32Array,
  gate: Float32Array,
  up: Float32Array,
  count: number,
  tangent?: GatedSiluBackwardTangent,
): void {
  if (!tangent && kernels.gatedSiluBackward) {
    kernels.gatedSiluBackward(dGate, dUp, dh, gate, up, count);
    return;
  }
  for (let index = 0; index < count; index++) {
    const g = gate[index]!;
    const u = up[index]!;
    const upstream = dh[index]!;
    const s = 1 / (1 + Math.exp(-g));
    const sPrime = s * (1 - s);
    const silu = g * s;
    const siluPrime = s + g * sPrime;
    dGate[index] = upstream * u * siluPrime;
    dUp[index] = upstream * silu;
    if (tangent) {
      const upstreamTangent = tangent.dhTangent ? tangent.dhTangent[index]! : 0;
      const gTangent = tangent.gateTangent ? tangent.gateTangent[index]! : 0;
      const uTangent = tangent.upTangent ? tangent.upTangent[index]! : 0;
      const siluSecond = sPrime * (2 + g * (1 - 2 * s));
      tangent.dGateTangent[index] = upstreamTangent * u * siluPrime + upstream * uTangent * siluPrime + upstream * u * siluSecond * gTangent;
      tangent.dUpTangent[index] = upstreamTangent * silu + upstream * siluPrime * gTangent;
    }
  }
}
