import { beforeAll, describe, expect, it } from 'vitest';
import { planForward } from '../model/forward-plan.js';
import { createKernelHarness, seededValues, type KernelHarness } from '../../test/support/kernel-harness.js';
import { webGpuUnavailableReason } from '../../test/support/software-gpu.js';
import { tinyDecoderConfig } from '@reward-lens/spec';

const numHeads = 4;
const numKvHeads = 2;

interface Shape {
  headDim: number;
  queryWidth: number;
  kvWidth: number;
  qkvStride: number;
}

function shapeOf(headDim: number): Shape {
  const queryWidth = numHeads * headDim;
  const kvWidth = numKvHeads * headDim;
  return { headDim, queryWidth, kvWidth, qkvStride: queryWidth + 2 * kvWidth };
}

/**
 * A padded batch: row 0 has 70 real tokens (more than one 64-query block and one key tile),
 * left-padded; row 1 continues a 3-token past with 5 tokens, right-padded. Cache slots no
 * real token owns hold huge values: reading any of them would show.
 */
function paddedBatch({ kvWidth, qkvStride }: Shape) {
  const sequenceLength = 72;
  const attentionMask = new Uint8Array(2 * sequenceLength);
  attentionMask.fill(1, 2, sequenceLength);
  attentionMask.fill(1, sequenceLength, sequenceLength + 5);
  const request = { batchSize: 2, sequenceLength, inputIds: new Int32Array(2 * sequenceLength), attentionMask, reads: [] };
  const plan = planForward(request, [0, 3], tinyDecoderConfig, () => 1);
  const rowCapacity = plan.rowCapacity;
  const rowStride = rowCapacity * kvWidth;
  const valueBase = 2 * rowStride;
  const cache = new Float32Array(2 * valueBase).fill(1e30);
  const lengths = [70, 8];
  const keyValues = seededValues(2 * valueBase, 4);
  for (let row = 0; row < 2; row++) {
    const from = row * rowStride;
    const to = from + lengths[row]! * kvWidth;
    cache.set(keyValues.subarray(from, to), from);
    cache.set(keyValues.subarray(valueBase + from, valueBase + to), valueBase + from);
  }
  const qkv = seededValues(plan.tokens * qkvStride, 9);
  return { plan, cache, qkv, rowStride, valueBase };
}

function referenceAttention({ headDim, queryWidth, kvWidth, qkvStride }: Shape, batch: ReturnType<typeof paddedBatch>): Float64Array {
  const { plan, cache, qkv, rowStride, valueBase } = batch;
  const out = new Float64Array(plan.tokens * queryWidth);
  const scale = 1 / Math.sqrt(headDim);
  for (let token = 0; token < plan.tokens; token++) {
    const row = plan.tokenInfo[2 * token]!;
    const position = plan.tokenInfo[2 * token + 1]!;
    for (let head = 0; head < numHeads; head++) {
      const keyStart = row * rowStride + Math.floor(head / (numHeads / numKvHeads)) * headDim;
      const scores = Array.from({ length: position + 1 }, (_, key) => {
        let sum = 0;
        for (let d = 0; d < headDim; d++) sum += qkv[token * qkvStride + head * headDim + d]! * cache[keyStart + key * kvWidth + d]!;
        return sum * scale;
      });
      const maximum = Math.max(...scores);
      const weights = scores.map((score) => Math.exp(score - maximum));
      const total = weights.reduce((sum, weight) => sum + weight, 0);
      for (let d = 0; d < headDim; d++) {
        let sum = 0;
        weights.forEach((weight, key) => (sum += weight * cache[valueBase + keyStart + key * kvWidth + d]!));
        out[token * queryWidth + head * headDim + d] = sum / total;
      }
    }
  }
  return out;
}

const unavailable = await webGpuUnavailableReason();

// Head size 16 stages 64 keys per tile; 64 stages 30, so tiles and query blocks fall out of step.
describe.skipIf(unavailable !== null).each([16, 64])('attention shader, head size %i (SwiftShader)', (headDim) => {
  const shape = shapeOf(headDim);
  let harness: KernelHarness;
  beforeAll(async () => {
    harness = await createKernelHarness(headDim);
  });

  it('packs a padded batch and attends causally within each row only (grouped-query, with a past)', async () => {
    const batch = paddedBatch(shape);
    const { plan } = batch;
    expect(Array.from(plan.tokenInfo.subarray(0, 4))).toEqual([0, 0, 0, 1]);
    expect(Array.from(plan.tokenInfo.subarray(140, 142))).toEqual([1, 3]);
    expect(Array.from(plan.queryBlocks)).toEqual([0, 0, 64, 0, 64, 6, 1, 70, 5]);
    const { kernels, upload, run } = harness;
    const out = upload(new Float32Array(plan.tokens * shape.queryWidth));
    const result = await run(
      (recorder) =>
        kernels.attention(
          recorder,
          { numHeads, numKvHeads, headDim },
          {
            qkv: upload(batch.qkv),
            tokenInfo: recorder.indices(plan.tokenInfo),
            blocks: recorder.indices(plan.queryBlocks),
            blockCount: plan.queryBlocks.length / 3,
            cache: upload(batch.cache),
            out,
            rowStride: batch.rowStride,
            valueBase: batch.valueBase,
          },
        ),
      out,
      plan.tokens * shape.queryWidth,
    );
    const expected = referenceAttention(shape, batch);
    for (let index = 0; index < expected.length; index++) {
      if (!(Math.abs(result[index]! - expected[index]!) <= 1e-5)) expect.fail(`output ${index} is ${result[index]}, expected ${expected[index]}`);
    }
  });
});
