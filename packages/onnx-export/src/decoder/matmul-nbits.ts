import type { QuantizedTensorV1 } from '@reward-lens/spec';
import { deferredFloatRows, type DeferredBytes } from '../graph/deferred-bytes.js';
import { Q4_BLOCK } from '@reward-lens/spec';

/** onnxruntime's contrib operators' domain, where `MatMulNBits` lives. */
export const MICROSOFT_DOMAIN = 'com.microsoft';

/** Weights per `MatMulNBits` block: spec's q4 block, and the one q8's per-row scale is repeated over. */
export const NBITS_BLOCK = Q4_BLOCK;

/** A weight in `MatMulNBits`'s layout, computed as it is written (`DeferredBytes`), never held beside the model's own. */
export interface NBitsWeights {
  bits: 4 | 8;
  data: DeferredBytes;
  /** q4: the tensor's own scales (a view); q8: its per-row scale repeated per block, computed as written. */
  scales: Float32Array | DeferredBytes;
  blocks: number;
}

/** Rows repacked per piece: about 8 MiB of `MatMulNBits` data. */
function rowsPerPiece(bytesPerRow: number): number {
  return Math.max(1, Math.floor((8 << 20) / Math.max(1, bytesPerRow)));
}

/**
 * A q8 or q4 `[N, K]` weight in `MatMulNBits`'s layout (onnxruntime's block-quantized MatMul,
 * `bits` 8 or 4, `block_size` 32, no zero points: the defaults 128 and 8): `B` uint8
 * `[N, ceil(K / 32), 32 · bits / 8]` with consecutive weights packed low nibble first, `scales`
 * float `[N · ceil(K / 32)]`. Every weight dequantizes to exactly the float32 spec's
 * `dequantizeRows` gives (`scale · q`): q8's per-row scale is repeated in each of its blocks, and
 * a row's last block is padded with zeros (the zero point).
 *
 * The integers are repacked a piece of rows at a time as they are written (about 8 MiB), so an
 * export holds no second copy of the weights.
 */
export function matmulNBitsWeights(tensor: QuantizedTensorV1): NBitsWeights {
  const { format, rows, columns } = tensor;
  const blocks = Math.ceil(columns / NBITS_BLOCK);
  if (format === 'q8') {
    const values = tensor.data as Int8Array;
    const rowBytes = blocks * NBITS_BLOCK;
    const step = rowsPerPiece(rowBytes);
    const data: DeferredBytes = {
      byteLength: rows * rowBytes,
      *pieces() {
        for (let first = 0; first < rows; first += step) {
          const count = Math.min(step, rows - first);
          const piece = new Uint8Array(count * rowBytes).fill(128);
          for (let row = 0; row < count; row++) {
            const source = (first + row) * columns;
            for (let column = 0; column < columns; column++) piece[row * rowBytes + column] = values[source + column]! + 128;
          }
          yield piece;
        }
      },
    };
    const scales = deferredFloatRows(rows, blocks, (first, count, out) => {
      for (let row = 0; row < count; row++) out.fill(tensor.scales[first + row]!, row * blocks, (row + 1) * blocks);
    });
    return { bits: 8, data, scales, blocks };
  }
  if (format !== 'q4') throw new Error(`MatMulNBits holds q8 and q4 weights, not ${format}`);
  // spec's q4 holds weight j of a block in byte j's low nibble and j + 16 in its high one; MatMulNBits packs weights 2j and 2j + 1 in byte j.
  const packed = tensor.data as Uint8Array;
  const nibble = (block: number, weight: number) => (weight < 16 ? packed[block * 16 + weight]! & 15 : packed[block * 16 + weight - 16]! >> 4);
  const step = rowsPerPiece(blocks * 16) * blocks;
  const total = rows * blocks;
  const data: DeferredBytes = {
    byteLength: total * 16,
    *pieces() {
      for (let first = 0; first < total; first += step) {
        const count = Math.min(step, total - first);
        const piece = new Uint8Array(count * 16);
        for (let block = 0; block < count; block++) {
          for (let j = 0; j < 16; j++) piece[block * 16 + j] = nibble(first + block, 2 * j) | (nibble(first + block, 2 * j + 1) << 4);
        }
        yield piece;
      }
    },
  };
  return { bits: 4, data, scales: tensor.scales.subarray(0, total), blocks };
}
