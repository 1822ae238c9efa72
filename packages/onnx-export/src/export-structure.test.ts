import { createRandomDecoder, tinyDecoderConfig } from '@reward-lens/spec';
import { InferenceSession } from 'onnxruntime-node';
import { describe, expect, it } from 'vitest';
import { DataType, decodeModelProto, type OnnxTypes } from './graph/onnx.js';
import { exportDecoderToOnnx } from './index.js';
import { testSessionOptions } from '../test/support/run-graph.js';
import { exportTestConfigs } from '../test/support/test-configs.js';

const model = createRandomDecoder({ seed: 1 });

function decode(bytes: Uint8Array): OnnxTypes.ModelProto {
  return decodeModelProto(bytes) as OnnxTypes.ModelProto;
}

function graphOf(bytes: Uint8Array): OnnxTypes.GraphProto {
  return decode(bytes).graph as OnnxTypes.GraphProto;
}

function shapeOf(value: OnnxTypes.IValueInfoProto): (number | string)[] {
  return (value.type?.tensorType?.shape?.dim ?? []).map((dim) => (dim.dimParam ? dim.dimParam : Number(dim.dimValue)));
}

/** Operators of the ONNX standard domain that onnxruntime-web's WebAssembly and WebGPU builds both run. */
const portableOperators = new Set([
  'Add',
  'And',
  'Cast',
  'Concat',
  'Div',
  'Expand',
  'Gather',
  'Gemm',
  'LessOrEqual',
  'MatMul',
  'Mul',
  'Pow',
  'Range',
  'ReduceMean',
  'Relu',
  'Reshape',
  'Shape',
  'Sigmoid',
  'Softmax',
  'Split',
  'Sqrt',
  'Sub',
  'Transpose',
  'Unsqueeze',
  'Where',
]);

describe('exported graph structure', () => {
  it('is IR 8, opset 17, standard operators only, with Optimum input names and dynamic axes', () => {
    const proto = decode(exportDecoderToOnnx(model, { withPast: true, hiddenStates: true }));
    expect(Number(proto.irVersion)).toBe(8);
    expect(proto.opsetImport.map((entry) => [entry.domain ?? '', Number(entry.version)])).toEqual([['', 17]]);
    const graph = proto.graph as OnnxTypes.GraphProto;
    for (const node of graph.node) {
      expect(node.domain ?? '').toBe('');
      expect(portableOperators.has(node.opType!), `operator ${node.opType}`).toBe(true);
    }
    const kv = tinyDecoderConfig.numKvHeads;
    const headDim = tinyDecoderConfig.headDim;
    expect(graph.input.map((input) => [input.name, shapeOf(input)])).toEqual([
      ['input_ids', ['batch_size', 'sequence_length']],
      ['attention_mask', ['batch_size', 'past_sequence_length + sequence_length']],
      ['position_ids', ['batch_size', 'sequence_length']],
      ['past_key_values.0.key', ['batch_size', kv, 'past_sequence_length', headDim]],
      ['past_key_values.0.value', ['batch_size', kv, 'past_sequence_length', headDim]],
      ['past_key_values.1.key', ['batch_size', kv, 'past_sequence_length', headDim]],
      ['past_key_values.1.value', ['batch_size', kv, 'past_sequence_length', headDim]],
    ]);
    expect(graph.input.slice(0, 3).every((input) => input.type?.tensorType?.elemType === DataType.INT64)).toBe(true);
    expect(graph.output.map((output) => [output.name, shapeOf(output)])).toEqual([
      ['scores.value', ['batch_size', 'sequence_length', 1]],
      ['class_logits.classifier', ['batch_size', 'sequence_length', 2]],
      ['logits', ['batch_size', 'sequence_length', 512]],
      ['hidden_states.0', ['batch_size', 'sequence_length', 64]],
      ['hidden_states.1', ['batch_size', 'sequence_length', 64]],
      ['hidden_states.2', ['batch_size', 'sequence_length', 64]],
      ['present.0.key', ['batch_size', kv, 'past_sequence_length + sequence_length', headDim]],
      ['present.0.value', ['batch_size', kv, 'past_sequence_length + sequence_length', headDim]],
      ['present.1.key', ['batch_size', kv, 'past_sequence_length + sequence_length', headDim]],
      ['present.1.value', ['batch_size', kv, 'past_sequence_length + sequence_length', headDim]],
    ]);
  });

  it('stores weights once, as initializers: a tied LM head reads the embedding table itself', () => {
    const graph = graphOf(exportDecoderToOnnx(model, { withPast: false }));
    const names = graph.initializer.map((tensor) => tensor.name);
    expect(new Set(names).size).toBe(names.length);
    expect(names).toContain('model.embed_tokens.weight');
    expect(names).toContain('model.layers.0.self_attn.q_proj.weight');
    expect(
      names.some((name) => name!.endsWith('_transposed')),
      'no transposed copies',
    ).toBe(false);
    expect(names.some((name) => name!.startsWith('lm_head'))).toBe(false);
    const weightBytes = graph.initializer.reduce((total, tensor) => total + (tensor.rawData?.byteLength ?? 0), 0);
    const modelBytes = [...model.tensors.values()].reduce((total, tensor) => total + tensor.byteLength, 0);
    // Beyond the model's own tensors: the rotary tables (2 × maxPositions × headDim/2 floats) and a few small constants.
    const rotaryBytes = 2 * tinyDecoderConfig.maxPositions * (tinyDecoderConfig.headDim / 2) * 4;
    expect(weightBytes - modelBytes - rotaryBytes).toBeGreaterThan(0);
    expect(weightBytes - modelBytes - rotaryBytes).toBeLessThan(1024);
  });

  it('compiles the Qwen2.5-Math-PRM head whole: one shared final norm, score.0, Relu, score.2, with portable operators', () => {
    const qwen = createRandomDecoder({ seed: 3, config: exportTestConfigs[1]!.config });
    const graph = graphOf(exportDecoderToOnnx(qwen, { withPast: false }));
    for (const node of graph.node) expect(portableOperators.has(node.opType!), `operator ${node.opType}`).toBe(true);
    const prmNodes = graph.node.filter((node) => node.name!.startsWith('/heads/prm/'));
    // Each linear: Gemm (transB, its bias as C) over the stored [out, in] weight on x's rows, then back to x's leading
    // dimensions. x's rows and shape are built once per x: the final norm's belong to the first head that read it.
    expect(prmNodes.map((node) => node.opType)).toEqual(['Gemm', 'Concat', 'Reshape', 'Relu', 'Reshape', 'Shape', 'Gemm', 'Concat', 'Reshape']);
    const gemms = prmNodes.filter((node) => node.opType === 'Gemm');
    expect(gemms.map((node) => node.input!.slice(1))).toEqual([
      ['score.0.weight', 'score.0.bias'],
      ['score.2.weight', 'score.2.bias'],
    ]);
    expect(gemms.every((node) => node.attribute!.some((attribute) => attribute.name === 'transB' && Number(attribute.i) === 1))).toBe(true);
    expect(prmNodes.at(-1)!.output).toEqual(['class_logits.prm']);
    // The four heads read one final norm.
    expect(graph.node.filter((node) => node.name!.startsWith('/model/norm/') && node.opType === 'ReduceMean')).toHaveLength(1);
  });

  it('without past has no cache inputs or outputs and a mask over the new tokens only', () => {
    const graph = graphOf(exportDecoderToOnnx(model, { withPast: false, heads: ['value'] }));
    expect(graph.input.map((input) => input.name)).toEqual(['input_ids', 'attention_mask', 'position_ids']);
    expect(shapeOf(graph.input[1]!)).toEqual(['batch_size', 'sequence_length']);
    expect(graph.output.map((output) => output.name)).toEqual(['scores.value']);
  });

  it('rejects unknown heads, other opsets and graphs without outputs', () => {
    expect(() => exportDecoderToOnnx(model, { withPast: false, heads: ['nope'] })).toThrow(/no head named "nope"/);
    expect(() => exportDecoderToOnnx(model, { withPast: false, opset: 18 as 17 })).toThrow(/opset 18/);
    expect(() => exportDecoderToOnnx(model, { withPast: false, heads: [] })).toThrow(/no outputs/);
    const broken = { config: model.config, tensors: new Map([...model.tensors].filter(([name]) => name !== 'model.norm.weight')) };
    expect(() => exportDecoderToOnnx(broken, { withPast: false })).toThrow(/model\.norm\.weight/);
  });

  it('loads in onnxruntime with dynamic axes left symbolic', async () => {
    const session = await InferenceSession.create(exportDecoderToOnnx(model, { withPast: true }), testSessionOptions);
    try {
      const metadata = session.inputMetadata.find((value) => value.name === 'past_key_values.0.key');
      expect(metadata?.isTensor && metadata.shape).toEqual(['batch_size', 2, 'past_sequence_length', 16]);
    } finally {
      await session.release();
    }
  });
});
