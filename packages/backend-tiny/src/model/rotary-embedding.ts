/**
 * Rotary position embedding tables, computed up to the highest position scored so far.
 *
 * Hugging Face's "rotate_half" layout: dimension `i` is paired with `i + headDim/2` (not with
 * its neighbour), both rotated by `position * theta^(-2i/headDim)`. Angles are computed in
 * float64 and the cosines and sines stored as float32. (Hugging Face computes the angle in
 * float32, which drifts by about `position * 2^-24` radians; the float64 angle is the exact one.)
 * Rope scaling variants (linear, dynamic, llama3) are not implemented.
 *
 * The tables grow on demand (doubling), up to the model's `maxPositions`: a config declaring
 * `max_position_embeddings: 1e8` costs nothing until such positions are scored.
 */
export interface RotaryTables {
  halfDim: number;
  /** The model's limit: positions at or beyond it are never asked for (requests are validated). */
  maxPositions: number;
  /** Positions the tables hold now. */
  capacity: number;
  theta: number;
  /** `[capacity, halfDim]`, row-major. */
  cos: Float32Array;
  sin: Float32Array;
}

const initialCapacity = 256;

export function createRotaryTables(headDim: number, maxPositions: number, theta: number): RotaryTables {
  const tables: RotaryTables = { halfDim: headDim / 2, maxPositions, capacity: 0, theta, cos: new Float32Array(0), sin: new Float32Array(0) };
  ensureRotaryCapacity(tables, Math.min(initialCapacity, maxPositions));
  return tables;
}

/** Grows the tables to hold positions `0 .. positions - 1` (doubling, capped at `maxPositions`). */
export function ensureRotaryCapacity(tables: RotaryTables, positions: number): void {
  if (positions <= tables.capacity) return;
  const { halfDim, theta } = tables;
  const capacity = Math.min(tables.maxPositions, Math.max(positions, 2 * tables.capacity));
  const cos = new Float32Array(capacity * halfDim);
  const sin = new Float32Array(capacity * halfDim);
  cos.set(tables.cos);
  sin.set(tables.sin);
  const headDim = halfDim * 2;
  const inverseFrequencies = new Float64Array(halfDim);
  for (let index = 0; index < halfDim; index++) inverseFrequencies[index] = theta ** ((-2 * index) / headDim);
  for (let position = tables.capacity; position < capacity; position++) {
    for (let index = 0; index < halfDim; index++) {
      const angle = position * inverseFrequencies[index]!;
      cos[position * halfDim + index] = Math.cos(angle);
      sin[position * halfDim + index] = Math.sin(angle);
    }
  }
  tables.cos = cos;
  tables.sin = sin;
  tables.capacity = capacity;
}

/**
 * Rotates every head of each token in place. `vectors` is `[tokens, numHeads * headDim]`;
 * `positionIds[token]` is the token's position.
 */
export function applyRotary(tables: RotaryTables, vectors: Float32Array, positionIds: Int32Array, tokens: number, numHeads: number): void {
  let highest = -1;
  for (let token = 0; token < tokens; token++) highest = Math.max(highest, positionIds[token]!);
  ensureRotaryCapacity(tables, highest + 1);
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
