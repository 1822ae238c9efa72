import { DataLocation, type OnnxTypes } from './graph/onnx.js';

export interface ExternalDataLayout {
  /** The model with the moved initializers pointing into the data file (the input is not changed). */
  proto: OnnxTypes.IModelProto;
  /** The moved tensors' bytes and where each goes in the data file, in file order. */
  chunks: { offset: number; bytes: Uint8Array }[];
  /** Size of the data file. */
  byteLength: number;
}

/** Tensors of at least this many bytes are aligned in the data file, so runtimes can map them (ONNX's own rule). */
const ALIGN_THRESHOLD = 1024 * 1024;
const ALIGNMENT = 64 * 1024;

/**
 * Moves every initializer of at least `tensorThresholdBytes` raw bytes (default 1 KiB, as the
 * `onnx` Python package does) to an external data file named `location`, relative to the model.
 * Large tensors start at 64 KiB boundaries.
 */
export function layOutExternalData(proto: OnnxTypes.IModelProto, location: string, tensorThresholdBytes = 1024): ExternalDataLayout {
  const chunks: ExternalDataLayout['chunks'] = [];
  let byteLength = 0;
  const initializer = (proto.graph?.initializer ?? []).map((tensor): OnnxTypes.ITensorProto => {
    const raw = tensor.rawData;
    if (!raw || raw.byteLength < tensorThresholdBytes || tensor.dataLocation === DataLocation.EXTERNAL) return tensor;
    if (raw.byteLength >= ALIGN_THRESHOLD) byteLength = Math.ceil(byteLength / ALIGNMENT) * ALIGNMENT;
    chunks.push({ offset: byteLength, bytes: raw });
    const external: OnnxTypes.ITensorProto = {
      ...tensor,
      rawData: null,
      dataLocation: DataLocation.EXTERNAL,
      externalData: [
        { key: 'location', value: location },
        { key: 'offset', value: String(byteLength) },
        { key: 'length', value: String(raw.byteLength) },
      ],
    };
    byteLength += raw.byteLength;
    return external;
  });
  return { proto: { ...proto, graph: { ...proto.graph, initializer } }, chunks, byteLength };
}

/** Raw bytes held by the model's initializers: what decides whether weights go to external data. */
export function initializerByteLength(proto: OnnxTypes.IModelProto): number {
  return (proto.graph?.initializer ?? []).reduce((total, tensor) => total + (tensor.rawData?.byteLength ?? 0), 0);
}
