import protobuf from 'protobufjs/light.js';
import { createRandomDecoder } from '@reward-lens/spec';
import { describe, expect, it } from 'vitest';
import { buildDecoderModelProto } from '../export-decoder-to-onnx.js';
import { decodeModelProto, encodeModelProto } from './onnx.js';
import { onnxSchema } from './onnx-schema.js';

describe('encodeModelProto', () => {
  it('writes the bytes protobufjs writes (initializers spliced in by hand), and they decode to the same model', () => {
    const proto = buildDecoderModelProto(createRandomDecoder({ seed: 3 }), { withPast: true });
    expect(proto.graph!.initializer!.length).toBeGreaterThan(10);
    const bytes = encodeModelProto(proto);
    const byProtobufjs = protobuf.Root.fromJSON(onnxSchema)
      .lookupType('onnx.ModelProto')
      .encode(proto as protobuf.Message)
      .finish();
    expect(bytes.length).toBe(byProtobufjs.length);
    expect(Buffer.from(bytes).equals(Buffer.from(byProtobufjs))).toBe(true);
    const decoded = decodeModelProto(bytes);
    expect(decoded.graph!.initializer!.map((tensor) => tensor.name)).toEqual(proto.graph!.initializer!.map((tensor) => tensor.name));
  });
});
