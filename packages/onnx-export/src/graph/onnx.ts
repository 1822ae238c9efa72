import protobuf from 'protobufjs/light.js';
import type { onnx as OnnxTypes } from 'onnx-proto';
import { onnxSchema } from './onnx-schema.js';

/*
 * Messages are encoded by protobufjs 8 from a reflected subset of onnx.proto; onnx-proto supplies
 * only the TypeScript shapes. (onnx-proto's generated code runs on protobufjs 6, whose optional
 * `long` lookup picks up long 5's ES module under some loaders and then fails at import.)
 */
export type { OnnxTypes };

const root = protobuf.Root.fromJSON(onnxSchema);
const modelType = root.lookupType('onnx.ModelProto');

/** TensorProto.DataType values used here. */
export const DataType = { FLOAT: 1, UINT8: 2, INT64: 7, BOOL: 9 } as const;

/** AttributeProto.AttributeType values used here. */
export const AttributeType = { FLOAT: 1, INT: 2, INTS: 7 } as const;

/** TensorProto.DataLocation. */
export const DataLocation = { DEFAULT: 0, EXTERNAL: 1 } as const;

export function encodeModelProto(model: OnnxTypes.IModelProto): Uint8Array {
  return modelType.encode(model as protobuf.Message).finish();
}

/** A plain object with int64 fields as numbers and byte fields as Uint8Array. */
export function decodeModelProto(bytes: Uint8Array): OnnxTypes.IModelProto {
  return modelType.toObject(modelType.decode(bytes), { longs: Number, enums: Number, arrays: true }) as OnnxTypes.IModelProto;
}
