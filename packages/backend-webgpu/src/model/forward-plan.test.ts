import { tinyDecoderConfig, type ForwardRequestV1 } from '@reward-lens/spec';
import { describe, expect, it } from 'vitest';
import { planForward, splitResults } from './forward-plan.js';

const config = tinyDecoderConfig;

describe('planForward', () => {
  // Row 0 left-padded (2 real tokens), row 1 right-padded (3 real tokens) after a 4-token past.
  const request: ForwardRequestV1 = {
    batchSize: 2,
    sequenceLength: 4,
    inputIds: Int32Array.of(0, 0, 11, 12, 21, 22, 23, 0),
    attentionMask: Uint8Array.of(0, 0, 1, 1, 1, 1, 1, 0),
    reads: [
      { kind: 'head', head: 'value', positions: [[3], [0, 2]] },
      { kind: 'hidden', layer: 1, positions: [[2, 3], []] },
      { kind: 'head', head: 'lm', positions: [[2], [1]], columns: [5, 6, 7], layer: 0 },
    ],
  };

  it('packs real tokens only, with position ids that count real tokens after the past', () => {
    const plan = planForward(request, [0, 4], config, () => 1);
    expect(plan.tokens).toBe(5);
    expect(Array.from(plan.inputIds)).toEqual([11, 12, 21, 22, 23]);
    expect(Array.from(plan.tokenInfo)).toEqual([0, 0, 0, 1, 1, 4, 1, 5, 1, 6]);
    expect(plan.rows).toEqual([
      { start: 0, count: 2, pastLength: 0 },
      { start: 2, count: 3, pastLength: 4 },
    ]);
    expect(plan.rowCapacity).toBe(7);
    expect(Array.from(plan.queryBlocks)).toEqual([0, 0, 2, 1, 2, 3]);
  });

  it('resolves reads to packed tokens, widths and result offsets, and runs only the layers they need', () => {
    const plan = planForward(request, [0, 4], config, () => 1);
    expect(plan.reads.map((read) => [read.layer, Array.from(read.tokenIndices), read.width, read.resultOffset])).toEqual([
      [2, [1, 2, 4], 1, 0],
      [1, [0, 1], 64, 3],
      [0, [0, 3], 3, 3 + 128],
    ]);
    expect(plan.resultLength).toBe(3 + 128 + 6);
    expect(plan.layersToRun).toBe(2);
    expect(planForward({ ...request, reads: [request.reads[2]!] }, [0, 0], config, () => 1).layersToRun).toBe(0);
    expect(planForward({ ...request, reads: [request.reads[2]!], returnCache: true }, [0, 0], config, () => 1).layersToRun).toBe(2);
  });

  it('splits the read-back buffer per read and per row', () => {
    const plan = planForward(request, [0, 0], config, () => 1);
    const results = splitResults(
      plan,
      Float32Array.from({ length: plan.resultLength }, (_, index) => index),
    );
    expect(results[0]!.values.map((values) => Array.from(values))).toEqual([[0], [1, 2]]);
    expect(results[1]!.width).toBe(64);
    expect(results[1]!.values[1]).toHaveLength(0);
    expect(Array.from(results[2]!.values[1]!)).toEqual([134, 135, 136]);
  });
});
