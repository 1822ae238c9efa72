import type { RotaryTables } from '../model/rotary-embedding.js';

/**
 * Rotates every head of each token back by its position's angle, in place: the transpose of
 * `applyRotary` (`model/rotary-embedding.ts`), which is what backpropagation through RoPE takes.
 * (RoPE is linear in its input, so its tangent is `applyRotary` itself.)
 */
export function applyInverseRotary(tables: RotaryTables, vectors: Float32Array, positionIds: Int32Array, tokens: number, numHeads: number): void {
  const { halfDim, cos, sin } = tables;
  const headDim = halfDim * 2;
  const width = numHeads * headDim;
  for (let token = 0; token < tokens; token++) {
    const table = positionIds[token]! * halfDim;
    for (let head = 0; head < numHeads; head++) {
      const base = token * width + head * headDim;
      for (let index = 0; index < halfDim; index++) {
        const c = cos[table + index]!;
        const s = sin[table + index]!;
        const first = vectors[base + index]!;
        const second = vectors[base + index + halfDim]!;
        vectors[base + index] = first * c + second * s;
        vectors[base + index + halfDim] = second * c - first * s;
      }
    }
  }
}
