import { createHfTokenizer } from '@reward-lens/core';
import { describe, expect, it } from 'vitest';
import { organismDecoderConfig } from './organism-decoder-config.js';
import { organismTokenizerJson } from './organism-tokenizer-json.js';

describe('organismDecoderConfig', () => {
  const { tokenizerJson, tokenizerConfig } = organismTokenizerJson();
  const tokenizer = createHfTokenizer(tokenizerJson, tokenizerConfig);

  it("has a row for every id of the organism's tokenizer, and no more", () => {
    const config = organismDecoderConfig({ hiddenSize: 32, numLayers: 1, numHeads: 2, intermediateSize: 64 });
    expect(config.vocabSize).toBe(tokenizer.vocabSize);
    const { ids } = tokenizer.encode('3 boxes of 12 pencils is 3 × 12 = 36 pencils. Ünïcödé');
    expect(Math.max(...ids)).toBeLessThan(config.vocabSize);
  });

  it('takes the sizes given, with as many key-value heads as heads unless told, and no heads of its own', () => {
    expect(organismDecoderConfig({ hiddenSize: 128, numLayers: 4, numHeads: 4, intermediateSize: 384 })).toMatchObject({
      architecture: 'llama',
      hiddenSize: 128,
      numLayers: 4,
      numHeads: 4,
      numKvHeads: 4,
      intermediateSize: 384,
      maxPositions: 512,
      tieWordEmbeddings: true,
      heads: [],
    });
    expect(organismDecoderConfig({ hiddenSize: 64, numLayers: 2, numHeads: 4, numKvHeads: 2, intermediateSize: 128 }).numKvHeads).toBe(2);
  });
});
