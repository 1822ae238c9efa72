import protobuf from 'protobufjs/light.js';
import type { onnx as OnnxTypes } from 'onnx-proto';
import { materializeTensor } from './deferred-bytes.js';
import { onnxSchema } from './onnx-schema.js';

/*
 * Messages are encoded by protobufjs 8 from a reflected subset of onnx.proto; onnx-proto supplies
 * only the TypeScript shapes. (onnx-proto's generated code runs on protobufjs 6, whose optional
 * `long` lookup picks up long 5's ES module under some loaders and then fails at import.)
 */
export type { OnnxTypes };

const root = protobuf.Root.fromJSON(onnxSchema);
const modelType = root.lookupType('onnx.ModelProto');
const graphType = root.lookupType('onnx.GraphProto');
const tensorType = root.lookupType('onnx.TensorProto');

/** Wire tags of the length-delimited fields spliced by hand: ModelProto.graph (7) and GraphProto.initializer (5). */
const graphTag = (7 << 3) | 2;
const initializerTag = (5 << 3) | 2;

/** TensorProto.DataType values used here. */
export const DataType = { FLOAT: 1, UINT8: 2, INT64: 7, BOOL: 9, FLOAT16: 10 } as const;

/** AttributeProto.AttributeType values used here. */
export const AttributeType = { FLOAT: 1, INT: 2, INTS: 7 } as const;

/** TensorProto.DataLocation. */
export const DataLocation = { DEFAULT: 0, EXTERNAL: 1 } as const;

function varintLength(value: number): number {
  let length = 1;
  for (let rest = value; rest >= 128; rest = Math.floor(rest / 128)) length++;
  return length;
}

function writeVarint(target: Uint8Array, at: number, value: number): number {
  let position = at;
  let rest = value;
  while (rest >= 128) {
    target[position++] = (rest % 128) | 128;
    rest = Math.floor(rest / 128);
  }
  target[position++] = rest;
  return position;
}

/** `message`'s fields split at `field` (in the schema's order, which protobufjs writes them in): those before it and those after. */
function splitAt(type: protobuf.Type, message: object, field: string): [Record<string, unknown>, Record<string, unknown>] {
  const names = type.fieldsArray.map((entry) => entry.name);
  const at = names.indexOf(field);
  const part = (keep: (index: number) => boolean) =>
    Object.fromEntries(Object.entries(message).filter(([name]) => names.includes(name) && keep(names.indexOf(name))));
  return [part((index) => index < at), part((index) => index > at)];
}

const encode = (type: protobuf.Type, message: object): Uint8Array => type.encode(message as protobuf.Message).finish();

/**
 * The model's bytes, as protobufjs writes them. Its writer grows its buffer by `length << 1`,
 * which overflows past 1 GiB: from then on every tensor reallocated and copied the whole buffer
 * (a 0.5B model took minutes, most of it page faults). So the initializers are encoded one by one
 * and written, with the graph's and the model's other fields around them in the same order, into
 * one buffer of the final size.
 */
export function encodeModelProto(model: OnnxTypes.IModelProto): Uint8Array {
  const initializers = model.graph?.initializer ?? [];
  if (initializers.length === 0) return encode(modelType, model);
  // A deferred tensor's bytes are computed here, one tensor at a time, and dropped once encoded.
  const tensors = initializers.map((tensor) => encode(tensorType, materializeTensor(tensor)));
  const [graphBefore, graphAfter] = splitAt(graphType, model.graph!, 'initializer').map((part) => encode(graphType, part)) as [Uint8Array, Uint8Array];
  const [modelBefore, modelAfter] = splitAt(modelType, model, 'graph').map((part) => encode(modelType, part)) as [Uint8Array, Uint8Array];
  const tensorBytes = tensors.reduce((sum, tensor) => sum + 1 + varintLength(tensor.length) + tensor.length, 0);
  const graphLength = graphBefore.length + tensorBytes + graphAfter.length;
  const out = new Uint8Array(modelBefore.length + 1 + varintLength(graphLength) + graphLength + modelAfter.length);
  let at = 0;
  const put = (bytes: Uint8Array) => {
    out.set(bytes, at);
    at += bytes.length;
  };
  put(modelBefore);
  out[at++] = graphTag;
  at = writeVarint(out, at, graphLength);
  put(graphBefore);
  for (const tensor of tensors) {
    out[at++] = initializerTag;
    at = writeVarint(out, at, tensor.length);
    put(tensor);
  }
  put(graphAfter);
  put(modelAfter);
  return out;
}

/** A plain object with int64 fields as numbers and byte fields as Uint8Array. */
export function decodeModelProto(bytes: Uint8Array): OnnxTypes.IModelProto {
  return modelType.toObject(modelType.decode(bytes), { longs: Number, enums: Number, arrays: true }) as OnnxTypes.IModelProto;
}
