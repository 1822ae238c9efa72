import { toFloat16Bits } from '@reward-lens/spec/internal';
import { materializeTensor } from './deferred-bytes.js';
import { DataType, type OnnxTypes } from './onnx.js';

/** The largest finite half: a float32 beyond it (the attention mask's -3.4e38) is clamped to it, not made infinite. */
const HALF_MAX = 65504;

/**
 * The model with every float32 in it as float16, as the hub's `model_fp16.onnx` files are
 * (onnxconverter-common's conversion): initializers and constants rounded to the nearest half
 * (ties to even, finite values beyond ±65504 clamped to it), the float inputs and outputs
 * (hidden states, logits, the cache) and every declared value float16, and casts to float32
 * made casts to float16. onnxruntime runs an operator it has no float16 kernel for on the CPU
 * through casts it inserts itself. Deferred initializers are computed once, here.
 */
export function toFloat16Model(model: OnnxTypes.IModelProto): OnnxTypes.IModelProto {
  const graph = model.graph ?? {};
  return {
    ...model,
    graph: {
      ...graph,
      initializer: (graph.initializer ?? []).map(halfTensor),
      node: (graph.node ?? []).map(halfNode),
      input: (graph.input ?? []).map(halfValue),
      output: (graph.output ?? []).map(halfValue),
      valueInfo: (graph.valueInfo ?? []).map(halfValue),
    },
  };
}

function halfTensor(tensor: OnnxTypes.ITensorProto): OnnxTypes.ITensorProto {
  if (tensor.dataType !== DataType.FLOAT) return tensor;
  const held = materializeTensor(tensor);
  const raw = held.rawData;
  const floats = raw ? new Float32Array(raw.buffer.slice(raw.byteOffset, raw.byteOffset + raw.byteLength)) : Float32Array.from(held.floatData ?? []);
  const halves = new Uint16Array(floats.length);
  for (let index = 0; index < floats.length; index++) {
    const value = floats[index]!;
    halves[index] = toFloat16Bits(Number.isFinite(value) ? Math.min(HALF_MAX, Math.max(-HALF_MAX, value)) : value);
  }
  const { floatData: _floats, ...rest } = held;
  return { ...rest, dataType: DataType.FLOAT16, rawData: new Uint8Array(halves.buffer) };
}

function halfNode(node: OnnxTypes.INodeProto): OnnxTypes.INodeProto {
  const attribute = (node.attribute ?? []).map((entry) => {
    if (entry.t) return { ...entry, t: halfTensor(entry.t) };
    if (node.opType === 'Cast' && entry.name === 'to' && Number(entry.i) === DataType.FLOAT) return { ...entry, i: DataType.FLOAT16 };
    return entry;
  });
  return { ...node, attribute };
}

function halfValue(value: OnnxTypes.IValueInfoProto): OnnxTypes.IValueInfoProto {
  const tensorType = value.type?.tensorType;
  if (!tensorType || tensorType.elemType !== DataType.FLOAT) return value;
  return { ...value, type: { ...value.type, tensorType: { ...tensorType, elemType: DataType.FLOAT16 } } };
}
