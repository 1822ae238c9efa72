import { describe, expect, it } from 'vitest';
import { defineDecoderConfig, expectedTensorShapes } from './decoder-config.js';
import { describeHead, describeHeads, formatHeadDescription, outputProjectionOf } from './head-description.js';
import { tinyDecoderConfig } from './random-decoder.js';
import type { HeadSpec } from './decoder-config.js';

// Qwen2.5-Math-PRM's head as its reading recipe in @reward-lens/core declares it.
const qwenPrmHead: HeadSpec = {
  name: 'classifier',
  kind: 'token-classification',
  numLabels: 2,
  weight: 'score.2.weight',
  bias: 'score.2.bias',
  hidden: { weight: 'score.0.weight', bias: 'score.0.bias' },
};

const qwenConfig = defineDecoderConfig({
  ...tinyDecoderConfig,
  architecture: 'qwen2',
  tieWordEmbeddings: false,
  heads: [qwenPrmHead, { name: 'lm', kind: 'lm' }],
});

describe('describeHead: one description of "apply a head" for every backend', () => {
  it("Qwen2.5-Math-PRM's head: final norm, score.0 → ReLU, score.2", () => {
    const [head] = describeHeads(qwenConfig);
    expect(head!.operations).toEqual([
      { op: 'rms-norm', weight: 'model.norm.weight', eps: 1e-5, size: 64 },
      { op: 'linear', weight: 'score.0.weight', bias: 'score.0.bias', inFeatures: 64, outFeatures: 64, tiedToEmbeddings: false },
      { op: 'relu' },
      { op: 'linear', weight: 'score.2.weight', bias: 'score.2.bias', inFeatures: 64, outFeatures: 2, tiedToEmbeddings: false },
    ]);
    expect(head!.width).toBe(2);
    expect(formatHeadDescription(head!)).toBe(
      'rms-norm (model.norm.weight) → linear 64→64 (score.0.weight + bias) → relu → linear 64→2 (score.2.weight + bias)',
    );
  });

  it('a tied LM head projects with the embedding table, an untied one with lm_head.weight', () => {
    const tied = describeHead(tinyDecoderConfig, { name: 'lm', kind: 'lm' });
    expect(outputProjectionOf(tied)).toMatchObject({ weight: 'model.embed_tokens.weight', tiedToEmbeddings: true, outFeatures: 512, bias: undefined });
    const untied = describeHead(qwenConfig, { name: 'lm', kind: 'lm' });
    expect(outputProjectionOf(untied)).toMatchObject({ weight: 'lm_head.weight', tiedToEmbeddings: false });
  });

  it('names only tensors the config declares (so every backend finds them after validation)', () => {
    for (const config of [tinyDecoderConfig, qwenConfig]) {
      const shapes = expectedTensorShapes(config);
      for (const description of describeHeads(config)) {
        for (const operation of description.operations) {
          if (operation.op === 'relu') continue;
          expect(shapes.has(operation.weight), operation.weight).toBe(true);
          if (operation.op === 'linear') {
            expect(shapes.get(operation.weight)).toEqual([operation.outFeatures, operation.inFeatures]);
            if (operation.bias) expect(shapes.get(operation.bias)).toEqual([operation.outFeatures]);
          }
        }
        expect(outputProjectionOf(description).outFeatures).toBe(description.width);
      }
    }
  });

  it('refuses a description that does not end with its output projection', () => {
    const description = describeHead(qwenConfig, qwenPrmHead);
    expect(() => outputProjectionOf({ ...description, operations: description.operations.slice(0, 3) })).toThrow(/output projection/);
  });
});
