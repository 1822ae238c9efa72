import { createRandomDecoder, headWidth, type DecoderModel } from '@reward-lens/spec';
import { dequantizeRows, quantizationPlan, quantizeTensor } from '@reward-lens/spec/internal';
import { expectClose } from '@reward-lens/core/testing';
import { InferenceSession } from 'onnxruntime-node';
import { describe, expect, it } from 'vitest';
import { decodeModelProto } from './graph/onnx.js';
import { headOutputNames } from './onnx-names.js';
import { buildDecoderModelProto } from './export-decoder-to-onnx.js';
import { tensorBytes } from './graph/deferred-bytes.js';
import { exportDecoderToOnnx } from './index.js';
import { runGraph, testSessionOptions } from '../test/support/run-graph.js';
import { oracleReads } from '../test/support/oracle-reads.js';
import { exportTestConfigs } from '../test/support/test-configs.js';

const TOLERANCE = 1e-4;

/** The projections the export quantizes (the plan's, the embedding table aside), widened back: the model the graph computes with. */
function widenedModel(model: DecoderModel, dtype: 'q8' | 'q4'): DecoderModel {
  const tensors = new Map(model.tensors);
  for (const [name, { format, rows, columns }] of quantizationPlan(model.config, dtype).tensors) {
    if (name === 'model.embed_tokens.weight') continue;
    const widened = new Float32Array(rows * columns);
    dequantizeRows(quantizeTensor(model.tensors.get(name)!, format, rows, columns), 0, rows, widened);
    tensors.set(name, widened);
  }
  return { config: model.config, tensors };
}

const ids = (length: number, vocabSize: number) => Array.from({ length }, (_, index) => (index * 37 + 5) % vocabSize);

describe('graphs with q8 and q4 weights (MatMulNBits)', () => {
  for (const { label, config } of exportTestConfigs) {
    for (const dtype of ['q8', 'q4'] as const) {
      it(`${dtype}, ${label}: every projection a MatMulNBits, onnxruntime's results the float64 oracle's over the same weights widened`, async () => {
        const model = createRandomDecoder({ seed: 21, config });
        const bytes = exportDecoderToOnnx(model, { withPast: false, hiddenStates: true, dtype });
        const proto = decodeModelProto(bytes);
        const nbits = proto.graph!.node!.filter((node) => node.opType === 'MatMulNBits');
        expect(nbits).toHaveLength(7 * config.numLayers);
        expect(nbits.every((node) => node.domain === 'com.microsoft')).toBe(true);
        expect(proto.opsetImport!.map((entry) => entry.domain ?? '')).toContain('com.microsoft');
        // The projections' float32 weights are not in the graph: only their integers and scales.
        expect(proto.graph!.initializer!.some((tensor) => tensor.name === 'model.layers.0.mlp.up_proj.weight')).toBe(false);

        const session = await InferenceSession.create(bytes, testSessionOptions);
        try {
          const row = ids(11, config.vocabSize);
          const expected = await oracleReads(widenedModel(model, dtype), row);
          const { outputs } = await runGraph(session, config, [{ ids: row }]);
          const names = headOutputNames(config.heads);
          config.heads.forEach((head, index) => {
            const name = names.get(head.name)!;
            expect(outputs[name]!.dims.at(-1)).toBe(headWidth(config, head));
            expectClose(outputs[name]!.data as Float32Array, expected.heads[index]!, TOLERANCE, name);
          });
          for (let layer = 0; layer <= config.numLayers; layer++) {
            expectClose(outputs[`hidden_states.${layer}`]!.data as Float32Array, expected.hidden[layer]!, TOLERANCE, `hidden_states.${layer}`);
          }
        } finally {
          await session.release();
        }
      });
    }
  }

  it('writes the tensors of a model loaded quantized as they are, and refuses what it cannot write', () => {
    const { config } = exportTestConfigs[1]!;
    const model = createRandomDecoder({ seed: 22, config });
    const plan = quantizationPlan(config, 'q4').tensors;
    expect(plan.has('model.embed_tokens.weight')).toBe(true);
    const tensors = new Map([...model.tensors].filter(([name]) => !plan.has(name)));
    const quantized = new Map([...plan].map(([name, { format, rows, columns }]) => [name, quantizeTensor(model.tensors.get(name)!, format, rows, columns)]));
    const loaded: DecoderModel = { config, tensors, quantized };
    const initializers = (bytes: Uint8Array) =>
      new Map(decodeModelProto(bytes).graph!.initializer!.map((tensor) => [tensor.name!, [...(tensor.rawData ?? [])].join()]));
    const fromLoaded = initializers(exportDecoderToOnnx(loaded, { withPast: false, dtype: 'q4' }));
    const fromFloat = initializers(exportDecoderToOnnx(model, { withPast: false, dtype: 'q4' }));
    // The same MatMulNBits weights either way; the embedding table, which Gather reads in float32, widened from the loader's q4.
    for (const [name, data] of fromFloat) if (name !== 'model.embed_tokens.weight') expect(fromLoaded.get(name), name).toBe(data);
    const embedding = quantized.get('model.embed_tokens.weight')!;
    const widened = new Float32Array(embedding.rows * embedding.columns);
    dequantizeRows(embedding, 0, embedding.rows, widened);
    expect(fromLoaded.get('model.embed_tokens.weight')).toBe([...new Uint8Array(widened.buffer)].join());
    expect(() => exportDecoderToOnnx(loaded, { withPast: false })).toThrow(/holds \d+ tensors quantized: export it with dtype 'q8' or 'q4'/);
    const half = new Map([...plan].map(([name, { rows, columns }]) => [name, quantizeTensor(model.tensors.get(name)!, 'fp16', rows, columns)]));
    expect(() => exportDecoderToOnnx({ config, tensors, quantized: half }, { withPast: false, dtype: 'q8' })).toThrow(
      /is held as fp16; the export writes float32, q8 and q4 weights/,
    );
  });

  it("builds a loaded q4 model's graph holding nothing beside the model: each initializer views the model's arrays, defers its bytes, or is a constant (the rotary tables)", () => {
    const { config } = exportTestConfigs[1]!;
    const model = createRandomDecoder({ seed: 23, config });
    const plan = quantizationPlan(config, 'q4').tensors;
    const quantized = new Map([...plan].map(([name, { format, rows, columns }]) => [name, quantizeTensor(model.tensors.get(name)!, format, rows, columns)]));
    const loaded: DecoderModel = { config, tensors: new Map([...model.tensors].filter(([name]) => !plan.has(name))), quantized };
    const buffers = new Set<ArrayBufferLike>(
      [...loaded.tensors.values(), ...[...quantized.values()].flatMap((tensor) => [tensor.data, tensor.scales])].map((array) => array.buffer),
    );
    const proto = buildDecoderModelProto(loaded, { withPast: true, readPositions: true, dtype: 'q4' });
    const deferred: string[] = [];
    for (const tensor of proto.graph!.initializer!) {
      const raw = tensor.rawData;
      if (raw === null || raw === undefined) {
        deferred.push(tensor.name!);
        expect(tensorBytes(tensor)?.byteLength, tensor.name!).toBeGreaterThan(0);
        // The rotary tables are computed (positions × head size), not weights: the only arrays of their own.
      } else if (!buffers.has(raw.buffer) && !tensor.name!.startsWith('rotary_')) expect(raw.byteLength, `${tensor.name} is a copy`).toBeLessThan(1024);
    }
    // Every projection's MatMulNBits integers, a q8 one's scales (its row's scale repeated per block; the
    // plan keeps q8 where a row is not whole blocks of 32), and the embedding table Gather reads widened.
    const q8Scales = [...quantized]
      .filter(([name, tensor]) => tensor.format === 'q8' && name !== 'model.embed_tokens.weight')
      .map(([name]) => `${name}.scales`);
    expect(deferred.sort()).toEqual(
      [
        ...[...plan.keys()].filter((name) => name !== 'model.embed_tokens.weight').map((name) => `${name}.nbits`),
        ...q8Scales,
        'model.embed_tokens.weight',
      ].sort(),
    );
    expect(deferred.filter((name) => name.endsWith('.nbits'))).toHaveLength(7 * config.numLayers);
  });
});
