/**
 * Rotary position embedding tables, precomputed once per model up to `maxPositions`.
 *
 * Hugging Face's "rotate_half" layout: dimension `i` is paired with `i + headDim/2` (not with
 * its neighbour), both rotated by `position * theta^(-2i/headDim)`. Angles are computed in
 * float64 and the cosines and sines stored as float32. (Hugging Face computes the angle in
 * float32, which drifts by about `position * 2^-24` radians; the float64 angle is the exact one.)
 * Rope scaling variants (linear, dynamic, llama3) are not implemented.
 */
export interface RotaryTables {
  halfDim: number;
  maxPositions: number;
  /** `[maxPositions, halfDim]`, row-major. */
  cos: Float32Array;
  sin: Float32Array;
}

export function createRotaryTables(headDim: number, maxPositions: number, theta: number): RotaryTables {
  const halfDim = headDim / 2;
  const cos = new Float32Array(maxPositions * halfDim);
  const sin = new Float32Array(maxPositions * halfDim);
  const inverseFrequencies = new Float64Array(halfDim);
  for (let index = 0; index < halfDim; index++) inverseFrequencies[index] = theta ** ((-2 * index) / headDim);
  for (let position = 0; position < maxPositions; position++) {
    for (let index = 0; index < halfDim; index++) {
      const angle = position * inverseFrequencies[index]!;
      cos[position * halfDim + index] = Math.cos(angle);
      sin[position * halfDim + index] = Math.sin(angle);
    }
  }
  return { halfDim, maxPositions, cos, sin };
}

/**
 * Rotates every head of each token in place. `vectors` is `[tokens, numHeads * headDim]`;
 * `positionIds[token]` is the token's position.
 */
export function applyRotary(tables: RotaryTables, vectors: Float32Array, positionIds: Int32Array, tokens: number, numHeads: number): void {
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
        vectors[base + index] = first * c - second * s;
        vectors[base + index + halfDim] = second * c + first * s;
      }
    }
  }
}
