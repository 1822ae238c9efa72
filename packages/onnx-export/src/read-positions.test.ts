import { createRandomDecoder, headWidth } from '@reward-lens/spec';
import { expectClose } from '@reward-lens/core/testing';
import { InferenceSession, Tensor } from 'onnxruntime-node';
import { describe, expect, it } from 'vitest';
import { decodeModelProto, type OnnxTypes } from './graph/onnx.js';
import { exportDecoderToOnnx } from './index.js';
import { headOutputNames, readOutputName, readPositionsName } from './onnx-names.js';
import { runGraph, testSessionOptions } from '../test/support/run-graph.js';
import { exportTestConfigs } from '../test/support/test-configs.js';

const TOLERANCE = 1e-5;

function idsOf(length: number, vocabSize: number, seed: number): number[] {
  return Array.from({ length }, (_, index) => (index * 31 + seed * 7 + 3) % vocabSize);
}

describe('read positions: heads applied only where they are read', () => {
  for (const { label, config } of exportTestConfigs) {
    it(`read.* equals the standard graph's outputs at the read columns (${label})`, async () => {
      const model = createRandomDecoder({ seed: 7, config });
      const standard = await InferenceSession.create(exportDecoderToOnnx(model, { withPast: true }), testSessionOptions);
      const withReads = await InferenceSession.create(exportDecoderToOnnx(model, { withPast: true, readPositions: true }), testSessionOptions);
      try {
        const long = idsOf(11, config.vocabSize, 1);
        const short = idsOf(5, config.vocabSize, 2);
        // Rows padded on either side; each row reads 3 columns (a repeat included), in no particular order.
        const rows = [{ ids: long }, { ids: short }, { ids: short, leftPadding: 6 }];
        const { outputs, cell, sequenceLength } = await runGraph(standard, config, rows);
        const reads = [
          [10, 0, 4],
          [4, 4, 1],
          [2, 0, 3],
        ];
        const columns = reads.map((tokens, row) => tokens.map((token) => cell(row, token) % sequenceLength));
        const names = headOutputNames(config.heads);
        const feeds = Object.fromEntries(
          config.heads.map((head) => [
            readPositionsName(names.get(head.name)!),
            new Tensor('int64', BigInt64Array.from(columns.flat(), BigInt), [rows.length, 3]),
          ]),
        );
        const { outputs: gathered } = await runGraph(withReads, config, rows, undefined, feeds);
        config.heads.forEach((head) => {
          const width = headWidth(config, head);
          const full = outputs[names.get(head.name)!]!.data as Float32Array;
          const read = gathered[readOutputName(names.get(head.name)!)]!;
          expect(read.dims).toEqual([rows.length, 3, width]);
          const expected = Float32Array.from(
            columns.flatMap((rowColumns, row) =>
              rowColumns.flatMap((column) => Array.from(full.subarray((row * sequenceLength + column) * width, (row * sequenceLength + column + 1) * width))),
            ),
          );
          expectClose(read.data as Float32Array, expected, TOLERANCE, `${head.name} at the read columns`);
        });
      } finally {
        await standard.release();
        await withReads.release();
      }
    });
  }

  it('has per-head read inputs and outputs in place of the per-token heads, each weight stored once', () => {
    const model = createRandomDecoder({ seed: 7, config: exportTestConfigs[1]!.config });
    const graphOf = (bytes: Uint8Array) => (decodeModelProto(bytes) as OnnxTypes.ModelProto).graph as OnnxTypes.GraphProto;
    const withReads = graphOf(exportDecoderToOnnx(model, { withPast: false, readPositions: true }));
    const names = withReads.initializer.map((tensor) => tensor.name);
    expect(new Set(names).size).toBe(names.length);
    expect(withReads.input.map((input) => input.name)).toEqual([
      'input_ids',
      'attention_mask',
      'position_ids',
      'read_positions.scores.value',
      'read_positions.class_logits.classifier',
      'read_positions.class_logits.prm',
      'read_positions.logits',
    ]);
    expect(withReads.output.map((output) => output.name)).toEqual([
      'read.scores.value',
      'read.class_logits.classifier',
      'read.class_logits.prm',
      'read.logits',
    ]);
    const standard = graphOf(exportDecoderToOnnx(model, { withPast: false }));
    const bytes = (graph: OnnxTypes.GraphProto) => graph.initializer.reduce((total, tensor) => total + (tensor.rawData?.byteLength ?? 0), 0);
    // The same weights; the read path adds a few int64 constants.
    expect(Math.abs(bytes(withReads) - bytes(standard))).toBeLessThan(256);
  });
});
