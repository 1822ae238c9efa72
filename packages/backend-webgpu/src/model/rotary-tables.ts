/**
 * Rotary cosines and sines `[maxPositions, headDim/2]`: angles `position * theta^(-2i/headDim)`
 * computed in float64 and stored as float32, exactly as backend-tiny builds them (so both
 * backends rotate by the same float32 numbers).
 */
export function createRotaryTables(headDim: number, maxPositions: number, theta: number): { cos: Float32Array; sin: Float32Array } {
  const halfDim = headDim / 2;
  const cos = new Float32Array(maxPositions * halfDim);
  const sin = new Float32Array(maxPositions * halfDim);
  const inverseFrequencies = Array.from({ length: halfDim }, (_, index) => theta ** ((-2 * index) / headDim));
  for (let position = 0; position < maxPositions; position++) {
    for (let index = 0; index < halfDim; index++) {
      const angle = position * inverseFrequencies[index]!;
      cos[position * halfDim + index] = Math.cos(angle);
      sin[position * halfDim + index] = Math.sin(angle);
    }
  }
  return { cos, sin };
}
