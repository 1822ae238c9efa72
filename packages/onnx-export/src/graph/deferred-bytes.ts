import type { onnx as OnnxTypes } from 'onnx-proto';

/**
 * An initializer's bytes computed when they are written, piece by piece, instead of held: a
 * weight repacked for `MatMulNBits` or widened to float32 exists only while its pieces are
 * written, so an export holds the model and one piece, not a second copy of the model.
 */
export interface DeferredBytes {
  readonly byteLength: number;
  /** The bytes in order, each piece computed as it is asked for; may be called more than once. */
  pieces(): Iterable<Uint8Array>;
}

const deferred = Symbol('reward-lens.deferredBytes');

type DeferredTensor = OnnxTypes.ITensorProto & { [deferred]?: DeferredBytes };

/** A tensor proto whose raw data is `bytes`, computed when it is encoded or written. */
export function deferredTensor(tensor: OnnxTypes.ITensorProto, bytes: DeferredBytes): OnnxTypes.ITensorProto {
  return { ...tensor, rawData: null, [deferred]: bytes } as DeferredTensor;
}

/** The raw bytes of an initializer, held or deferred, as pieces to write; undefined when it has none. */
export function tensorBytes(tensor: OnnxTypes.ITensorProto): DeferredBytes | undefined {
  const later = (tensor as DeferredTensor)[deferred];
  if (later) return later;
  const raw = tensor.rawData;
  return raw ? { byteLength: raw.byteLength, pieces: () => [raw] } : undefined;
}

/** The tensor with its deferred bytes computed into `rawData` (for encoding it inside a graph); a held one as it is. */
export function materializeTensor(tensor: OnnxTypes.ITensorProto): OnnxTypes.ITensorProto {
  const later = (tensor as DeferredTensor)[deferred];
  if (!later) return tensor;
  const rawData = new Uint8Array(later.byteLength);
  let at = 0;
  for (const piece of later.pieces()) {
    if (at + piece.byteLength <= rawData.byteLength) rawData.set(piece, at);
    at += piece.byteLength;
  }
  if (at !== later.byteLength) throw new Error(`tensor "${tensor.name}" gave ${at} bytes, not the ${later.byteLength} it declared`);
  const { [deferred]: _dropped, ...held } = tensor as DeferredTensor;
  return { ...held, rawData };
}

/** The tensor without deferred bytes (its data now lives elsewhere: external data). */
export function withoutDeferredBytes(tensor: OnnxTypes.ITensorProto): OnnxTypes.ITensorProto {
  const { [deferred]: _dropped, ...rest } = tensor as DeferredTensor;
  return rest;
}

/** Deferred float32 values, `count` of them, computed `rowsPerPiece` rows of `width` at a time by `fill(firstRow, rows, out)`. */
export function deferredFloatRows(
  rows: number,
  width: number,
  fill: (firstRow: number, count: number, out: Float32Array) => void,
  rowsPerPiece?: number,
): DeferredBytes {
  const step = rowsPerPiece ?? Math.max(1, Math.floor((16 << 20) / (4 * Math.max(1, width))));
  return {
    byteLength: rows * width * 4,
    *pieces() {
      for (let row = 0; row < rows; row += step) {
        const count = Math.min(step, rows - row);
        const out = new Float32Array(count * width);
        fill(row, count, out);
        yield new Uint8Array(out.buffer);
      }
    },
  };
}
