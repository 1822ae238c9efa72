import type { QuantizedTensorV1 } from '@reward-lens/spec';

/** A weight matrix as the products read it: float32, or quantized. */
export type WeightMatrix = Float32Array | QuantizedTensorV1;

export function isQuantized(matrix: WeightMatrix): matrix is QuantizedTensorV1 {
  return !(matrix instanceof Float32Array);
}
