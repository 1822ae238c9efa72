import type { QuantizedTensorV1 } from '@reward-lens/spec';
import { Q4_BLOCK } from '@reward-lens/spec';

/** onnxruntime's contrib operators' domain, where `MatMulNBits` lives. */
export const MICROSOFT_DOMAIN = 'com.microsoft';

/** Weights per `MatMulNBits` block: spec's q4 block, and the one q8's per-row scale is repeated over. */
export const NBITS_BLOCK = Q4_BLOCK;

/**
 * A q8 or q4 `[N, K]` weight in `MatMulNBits`'s layout (onnxruntime's block-quantized MatMul,
 * `bits` 8 or 4, `block_size` 32, no zero points: the defaults 128 and 8): `B` uint8
 * `[N, ceil(K / 32), 32 · bits / 8]` with consecutive weights packed low nibble first, `scales`
 * float `[N · ceil(K / 32)]`. Every weight dequantizes to exactly the float32 spec's
 * `dequantizeRows` gives (`scale · q`): q8's per-row scale is repeated in each of its blocks, and
 * a row's last block is padded with zeros (the zero point).
 */
/**
 * `repack`'s result, computed once per tensor within one export (`shared`: the standard and the
 * read-positions graph of a folder share the arrays, and so the external data). Kept only as long
 * as the export: a backend holding the model must not hold the repacked copy too.
 */
export function matmulNBitsWeights(tensor: QuantizedTensorV1, shared: Map<QuantizedTensorV1, NBitsWeights>): NBitsWeights {
  let weights = shared.get(tensor);
  if (weights === undefined) {
    weights = repack(tensor);
    shared.set(tensor, weights);
  }
  return weights;
}

export interface NBitsWeights {
  bits: 4 | 8;
  data: Uint8Array;
  scales: Float32Array;
  blocks: number;
}

function repack(tensor: QuantizedTensorV1): NBitsWeights {
  const { format, rows, columns } = tensor;
  const blocks = Math.ceil(columns / NBITS_BLOCK);
  const scales = new Float32Array(rows * blocks);
  if (format === 'q8') {
    const data = new Uint8Array(rows * blocks * NBITS_BLOCK).fill(128);
    const values = tensor.data as Int8Array;
    for (let row = 0; row < rows; row++) {
      scales.fill(tensor.scales[row]!, row * blocks, (row + 1) * blocks);
      const target = row * blocks * NBITS_BLOCK;
      for (let column = 0; column < columns; column++) data[target + column] = values[row * columns + column]! + 128;
    }
    return { bits: 8, data, scales, blocks };
  }
  if (format !== 'q4') throw new Error(`MatMulNBits holds q8 and q4 weights, not ${format}`);
  scales.set(tensor.scales);
  // spec's q4 holds weight j of a block in byte j's low nibble and j + 16 in its high one; MatMulNBits packs weights 2j and 2j + 1 in byte j.
  const packed = tensor.data as Uint8Array;
  const data = new Uint8Array(rows * blocks * 16);
  const nibble = (block: number, weight: number) => (weight < 16 ? packed[block * 16 + weight]! & 15 : packed[block * 16 + weight - 16]! >> 4);
  for (let block = 0; block < rows * blocks; block++) {
    for (let j = 0; j < 16; j++) data[block * 16 + j] = nibble(block, 2 * j) | (nibble(block, 2 * j + 1) << 4);
  }
  return { bits: 4, data, scales, blocks };
}
