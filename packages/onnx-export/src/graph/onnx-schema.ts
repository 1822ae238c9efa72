/**
 * The part of onnx.proto (ONNX 1.10, IR 8) that the exporter writes and reads, as a protobufjs
 * JSON descriptor. Field numbers are onnx.proto's; fields not listed are skipped when decoding.
 */
const field = (id: number, type: string, rule?: 'repeated') => (rule ? { id, type, rule } : { id, type });

export const onnxSchema = {
  nested: {
    onnx: {
      nested: {
        ModelProto: {
          fields: {
            irVersion: field(1, 'int64'),
            producerName: field(2, 'string'),
            producerVersion: field(3, 'string'),
            domain: field(4, 'string'),
            modelVersion: field(5, 'int64'),
            docString: field(6, 'string'),
            graph: field(7, 'GraphProto'),
            opsetImport: field(8, 'OperatorSetIdProto', 'repeated'),
            metadataProps: field(14, 'StringStringEntryProto', 'repeated'),
          },
        },
        OperatorSetIdProto: { fields: { domain: field(1, 'string'), version: field(2, 'int64') } },
        StringStringEntryProto: { fields: { key: field(1, 'string'), value: field(2, 'string') } },
        GraphProto: {
          fields: {
            node: field(1, 'NodeProto', 'repeated'),
            name: field(2, 'string'),
            initializer: field(5, 'TensorProto', 'repeated'),
            docString: field(10, 'string'),
            input: field(11, 'ValueInfoProto', 'repeated'),
            output: field(12, 'ValueInfoProto', 'repeated'),
            valueInfo: field(13, 'ValueInfoProto', 'repeated'),
          },
        },
        NodeProto: {
          fields: {
            input: field(1, 'string', 'repeated'),
            output: field(2, 'string', 'repeated'),
            name: field(3, 'string'),
            opType: field(4, 'string'),
            attribute: field(5, 'AttributeProto', 'repeated'),
            docString: field(6, 'string'),
            domain: field(7, 'string'),
          },
        },
        AttributeProto: {
          fields: {
            name: field(1, 'string'),
            f: field(2, 'float'),
            i: field(3, 'int64'),
            s: field(4, 'bytes'),
            t: field(5, 'TensorProto'),
            floats: field(7, 'float', 'repeated'),
            ints: field(8, 'int64', 'repeated'),
            strings: field(9, 'bytes', 'repeated'),
            docString: field(13, 'string'),
            type: field(20, 'int32'),
          },
        },
        TensorProto: {
          fields: {
            dims: field(1, 'int64', 'repeated'),
            dataType: field(2, 'int32'),
            floatData: field(4, 'float', 'repeated'),
            int32Data: field(5, 'int32', 'repeated'),
            int64Data: field(7, 'int64', 'repeated'),
            name: field(8, 'string'),
            rawData: field(9, 'bytes'),
            doubleData: field(10, 'double', 'repeated'),
            docString: field(12, 'string'),
            externalData: field(13, 'StringStringEntryProto', 'repeated'),
            dataLocation: field(14, 'int32'),
          },
        },
        ValueInfoProto: { fields: { name: field(1, 'string'), type: field(2, 'TypeProto'), docString: field(3, 'string') } },
        TypeProto: {
          fields: { tensorType: field(1, 'TypeProto.Tensor'), denotation: field(6, 'string') },
          nested: { Tensor: { fields: { elemType: field(1, 'int32'), shape: field(2, 'TensorShapeProto') } } },
        },
        TensorShapeProto: {
          fields: { dim: field(1, 'TensorShapeProto.Dimension', 'repeated') },
          nested: {
            Dimension: {
              fields: { dimValue: field(1, 'int64'), dimParam: field(2, 'string'), denotation: field(3, 'string') },
              oneofs: { value: { oneof: ['dimValue', 'dimParam'] } },
            },
          },
        },
      },
    },
  },
};
