import { createRandomDecoder, defineDecoderConfig, headWidth, tinyDecoderConfig } from '@reward-lens/spec';
import { expectClose } from '@reward-lens/core/testing';
import { InferenceSession, Tensor } from 'onnxruntime-node';
import { describe, expect, it } from 'vitest';
import { decodeModelProto, type OnnxTypes } from './graph/onnx.js';
import { headOutputNames } from './onnx-names.js';
import { exportDecoderToOnnx } from './index.js';
import { runGraph, testSessionOptions } from '../test/support/run-graph.js';
import { exportTestConfigs } from '../test/support/test-configs.js';
import { oracleReads } from '../test/support/oracle-reads.js';

const TOLERANCE = 1e-4;

function idsOf(length: number, vocabSize: number, seed: number): number[] {
  return Array.from({ length }, (_, index) => (index * 37 + seed * 11 + 1) % vocabSize);
}

describe('exported graphs match the float64 oracle', () => {
  for (const { label, config } of exportTestConfigs) {
    it(label, async () => {
      const model = createRandomDecoder({ seed: 42, config });
      const session = await InferenceSession.create(exportDecoderToOnnx(model, { withPast: true, hiddenStates: true }), testSessionOptions);
      try {
        const long = idsOf(13, config.vocabSize, 1);
        const short = idsOf(6, config.vocabSize, 2);
        const expectedLong = await oracleReads(model, long);
        const expectedShort = await oracleReads(model, short);
        // A padded batch: the short row right-padded, then left-padded, beside the long row.
        const { outputs, cell } = await runGraph(session, config, [{ ids: long }, { ids: short }, { ids: short, leftPadding: 7 }]);
        const outputNames = headOutputNames(config.heads);
        const rowValues = (name: string, width: number, row: number, count: number) =>
          Float32Array.from(
            { length: count * width },
            (_, index) => (outputs[name]!.data as Float32Array)[cell(row, Math.floor(index / width)) * width + (index % width)]!,
          );
        config.heads.forEach((head, headIndex) => {
          const width = headWidth(config, head);
          const name = outputNames.get(head.name)!;
          expectClose(rowValues(name, width, 0, long.length), expectedLong.heads[headIndex]!, TOLERANCE, `${name}, long row`);
          expectClose(rowValues(name, width, 1, short.length), expectedShort.heads[headIndex]!, TOLERANCE, `${name}, right-padded row`);
          expectClose(rowValues(name, width, 2, short.length), expectedShort.heads[headIndex]!, TOLERANCE, `${name}, left-padded row`);
        });
        for (let layer = 0; layer <= config.numLayers; layer++) {
          expectClose(rowValues(`hidden_states.${layer}`, config.hiddenSize, 0, long.length), expectedLong.hidden[layer]!, TOLERANCE, `hidden_states.${layer}`);
        }
      } finally {
        await session.release();
      }
    });
  }

  it('continues from present.* fed back as past_key_values.*', async () => {
    const { config } = exportTestConfigs[0]!;
    const model = createRandomDecoder({ seed: 5, config });
    const session = await InferenceSession.create(exportDecoderToOnnx(model, { withPast: true }), testSessionOptions);
    try {
      const full = idsOf(12, config.vocabSize, 3);
      const expected = (await oracleReads(model, full)).heads[0]!;
      const prefix = await runGraph(session, config, [{ ids: full.slice(0, 8) }]);
      const tensors: Record<string, Float32Array> = {};
      for (let layer = 0; layer < config.numLayers; layer++) {
        for (const part of ['key', 'value']) tensors[`past_key_values.${layer}.${part}`] = prefix.outputs[`present.${layer}.${part}`]!.data as Float32Array;
      }
      const rest = await runGraph(session, config, [{ ids: full.slice(8) }], { length: 8, tensors });
      expectClose((rest.outputs['scores.value']!.data as Float32Array).slice(0, 4), expected.subarray(8), TOLERANCE, 'continuation after a past of 8');
    } finally {
      await session.release();
    }
  });
});

describe('rotary tables sized by the digits of the positions, not by the positions', () => {
  it("a model declaring 1e12 positions exports four small tables and gives the oracle's values at positions near 1e12", async () => {
    const config = defineDecoderConfig({ ...tinyDecoderConfig, maxPositions: 1e12 });
    const model = createRandomDecoder({ seed: 8, config });
    const bytes = exportDecoderToOnnx(model, { withPast: false });
    const tables = (decodeModelProto(bytes) as OnnxTypes.ModelProto).graph!.initializer!.filter((tensor) => tensor.name!.startsWith('rotary_'));
    const halfDim = config.headDim / 2;
    expect(tables.map((tensor) => `${tensor.name} [${tensor.dims!.join(', ')}]`).sort()).toEqual(
      [0, 1, 2, 3]
        .flatMap((level) => {
          const rows = level < 3 ? 1024 : Math.ceil(1e12 / 1024 ** 3);
          return [`rotary_cos_table_level${level} [${rows}, ${halfDim}]`, `rotary_sin_table_level${level} [${rows}, ${halfDim}]`];
        })
        .sort(),
    );
    // Rotary embeddings are relative: one row's outputs do not change when all its positions shift.
    // So the oracle's values at positions 0..11 are the graph's at offset..offset+11, for offsets
    // crossing each level's digits, and a table that lost precision at large positions would show.
    const ids = idsOf(12, config.vocabSize, 4);
    const expected = (await oracleReads(model, ids)).heads[0]!;
    const session = await InferenceSession.create(bytes, testSessionOptions);
    try {
      for (const offset of [0, 1020, 1024 ** 2 - 6, 1024 ** 3 + 5, 999_999_999_988]) {
        const positions = new Tensor(
          'int64',
          BigInt64Array.from(ids, (_, index) => BigInt(offset + index)),
          [1, ids.length],
        );
        const { outputs } = await runGraph(session, config, [{ ids }], undefined, { position_ids: positions });
        expectClose(outputs['scores.value']!.data as Float32Array, expected, TOLERANCE, `value head at positions ${offset}..${offset + 11}`);
      }
    } finally {
      await session.release();
    }
  });
});
