import { createRandomDecoder, headWidth } from '@reward-lens/core/internal';
import { expectClose } from '@reward-lens/core/testing';
import { InferenceSession, Tensor } from 'onnxruntime-node';
import { describe, expect, it } from 'vitest';
import { decodeModelProto, type OnnxTypes } from './graph/onnx.js';
import { exportDecoderToOnnx } from './index.js';
import { headOutputNames, readOutputName } from './onnx-names.js';
import { runGraph, testSessionOptions } from './test-support/run-graph.js';
import { exportTestConfigs } from './test-support/test-configs.js';

const TOLERANCE = 1e-5;

function idsOf(length: number, vocabSize: number, seed: number): number[] {
  return Array.from({ length }, (_, index) => (index * 31 + seed * 7 + 3) % vocabSize);
}

describe('read_positions: heads applied only where they are read', () => {
  for (const { label, config } of exportTestConfigs) {
    it(`read.* equals the full outputs at the read columns (${label})`, async () => {
      const model = createRandomDecoder({ seed: 7, config });
      const session = await InferenceSession.create(exportDecoderToOnnx(model, { withPast: true, readPositions: true }), testSessionOptions);
      try {
        const long = idsOf(11, config.vocabSize, 1);
        const short = idsOf(5, config.vocabSize, 2);
        // Rows padded on either side; each row reads 3 columns (a repeat included), in no particular order.
        const rows = [{ ids: long }, { ids: short }, { ids: short, leftPadding: 6 }];
        const { outputs, cell, sequenceLength } = await runGraph(session, config, rows);
        const reads = [
          [10, 0, 4],
          [4, 4, 1],
          [2, 0, 3],
        ];
        const columns = reads.map((tokens, row) => tokens.map((token) => cell(row, token) % sequenceLength));
        const readFeed = new Tensor('int64', BigInt64Array.from(columns.flat(), BigInt), [rows.length, 3]);
        const names = config.heads.map((head) => readOutputName(headOutputNames(config.heads).get(head.name)!));
        const { outputs: gathered } = await runGraph(session, config, rows, undefined, { read_positions: readFeed }, names);
        config.heads.forEach((head) => {
          const width = headWidth(config, head);
          const full = outputs[headOutputNames(config.heads).get(head.name)!]!.data as Float32Array;
          const read = gathered[readOutputName(headOutputNames(config.heads).get(head.name)!)]!;
          expect(read.dims).toEqual([rows.length, 3, width]);
          const expected = Float32Array.from(
            columns.flatMap((rowColumns, row) =>
              rowColumns.flatMap((column) => Array.from(full.subarray((row * sequenceLength + column) * width, (row * sequenceLength + column + 1) * width))),
            ),
          );
          expectClose(read.data as Float32Array, expected, TOLERANCE, `${head.name} at the read columns`);
        });
      } finally {
        await session.release();
      }
    });
  }

  it('stores each weight once, and leaves the standard graph without the input', () => {
    const model = createRandomDecoder({ seed: 7, config: exportTestConfigs[1]!.config });
    const graphOf = (bytes: Uint8Array) => (decodeModelProto(bytes) as OnnxTypes.ModelProto).graph as OnnxTypes.GraphProto;
    const withReads = graphOf(exportDecoderToOnnx(model, { withPast: false, readPositions: true }));
    const names = withReads.initializer.map((tensor) => tensor.name);
    expect(new Set(names).size).toBe(names.length);
    expect(names.filter((name) => name === 'lm_head.weight_transposed')).toHaveLength(1);
    expect(withReads.input.map((input) => input.name)).toContain('read_positions');
    expect(withReads.output.map((output) => output.name)).toEqual([
      'scores.value',
      'class_logits.classifier',
      'logits',
      'read.scores.value',
      'read.class_logits.classifier',
      'read.logits',
    ]);
    const standard = graphOf(exportDecoderToOnnx(model, { withPast: false }));
    expect(standard.input.map((input) => input.name)).toEqual(['input_ids', 'attention_mask', 'position_ids']);
    const bytes = (graph: OnnxTypes.GraphProto) => graph.initializer.reduce((total, tensor) => total + (tensor.rawData?.byteLength ?? 0), 0);
    // The read path adds a few int64 constants, no weights.
    expect(bytes(withReads) - bytes(standard)).toBeLessThan(256);
  });
});
