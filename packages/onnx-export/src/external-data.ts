import { tensorBytes, withoutDeferredBytes, type DeferredBytes } from './graph/deferred-bytes.js';
import { DataLocation, type OnnxTypes } from './graph/onnx.js';

export interface ExternalDataLayout {
  /** The model with the moved initializers pointing into the data file (the input is not changed). */
  proto: OnnxTypes.IModelProto;
  /** The moved tensors' bytes (held, or computed as they are written) and where each goes in the data file, in file order. */
  chunks: { offset: number; bytes: DeferredBytes }[];
  /** Size of the data file. */
  byteLength: number;
  /** Where each moved tensor went, by name: another graph with the same weights can point there too (`pointToExternalData`). */
  placements: Map<string, { offset: number; length: number }>;
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
  const placements: ExternalDataLayout['placements'] = new Map();
  let byteLength = 0;
  const initializer = (proto.graph?.initializer ?? []).map((tensor): OnnxTypes.ITensorProto => {
    const raw = tensorBytes(tensor);
    if (!raw || raw.byteLength < tensorThresholdBytes || tensor.dataLocation === DataLocation.EXTERNAL) return tensor;
    if (raw.byteLength >= ALIGN_THRESHOLD) byteLength = Math.ceil(byteLength / ALIGNMENT) * ALIGNMENT;
    chunks.push({ offset: byteLength, bytes: raw });
    placements.set(tensor.name ?? '', { offset: byteLength, length: raw.byteLength });
    const external = externalTensor(tensor, location, byteLength, raw.byteLength);
    byteLength += raw.byteLength;
    return external;
  });
  return { proto: { ...proto, graph: { ...proto.graph, initializer } }, chunks, byteLength, placements };
}

/**
 * Points the initializers of `proto` that an earlier layout placed (same name, same size) into
 * that layout's data file, so that two graphs of one model (the standard one and the one with
 * read positions) share one `model.onnx_data`. The others stay inside the graph.
 */
export function pointToExternalData(proto: OnnxTypes.IModelProto, location: string, placements: ExternalDataLayout['placements']): OnnxTypes.IModelProto {
  const initializer = (proto.graph?.initializer ?? []).map((tensor): OnnxTypes.ITensorProto => {
    const placed = placements.get(tensor.name ?? '');
    if (!placed || tensorBytes(tensor)?.byteLength !== placed.length) return tensor;
    return externalTensor(tensor, location, placed.offset, placed.length);
  });
  return { ...proto, graph: { ...proto.graph, initializer } };
}

function externalTensor(tensor: OnnxTypes.ITensorProto, location: string, offset: number, length: number): OnnxTypes.ITensorProto {
  return {
    ...withoutDeferredBytes(tensor),
    rawData: null,
    dataLocation: DataLocation.EXTERNAL,
    externalData: [
      { key: 'location', value: location },
      { key: 'offset', value: String(offset) },
      { key: 'length', value: String(length) },
    ],
  };
}

/** Raw bytes held by the model's initializers: what decides whether weights go to external data. */
export function initializerByteLength(proto: OnnxTypes.IModelProto): number {
  return (proto.graph?.initializer ?? []).reduce((total, tensor) => total + (tensorBytes(tensor)?.byteLength ?? 0), 0);
}
