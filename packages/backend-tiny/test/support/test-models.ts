import { createRandomDecoder, defineDecoderConfig, type DecoderConfig, type DecoderModel } from '@reward-lens/spec';

/** Small configs that exercise each structural variant, fast enough for naive references. */
export function testConfig(overrides: Partial<Omit<DecoderConfig, 'headDim'>> & { headDim?: number } = {}): DecoderConfig {
  return defineDecoderConfig({
    architecture: 'llama',
    hiddenSize: 32,
    numLayers: 3,
    numHeads: 4,
    numKvHeads: 4,
    intermediateSize: 48,
    vocabSize: 61,
    maxPositions: 64,
    ropeTheta: 10000,
    rmsNormEps: 1e-6,
    tieWordEmbeddings: true,
    attentionBias: false,
    heads: [
      { name: 'value', kind: 'value', weight: 'v_head.weight', bias: 'v_head.bias' },
      { name: 'classifier', kind: 'token-classification', numLabels: 3, weight: 'score.weight', bias: 'score.bias' },
      { name: 'lm', kind: 'lm' },
    ],
    ...overrides,
  });
}

export function testModel(seed: number, overrides: Parameters<typeof testConfig>[0] = {}): DecoderModel {
  return createRandomDecoder({ seed, config: testConfig(overrides) });
}

/** Deterministic token ids in `[0, vocabSize)`. */
export function tokenIds(count: number, vocabSize: number, salt = 0): number[] {
  return Array.from({ length: count }, (_, index) => (index * 37 + salt * 11 + 5) % vocabSize);
}
