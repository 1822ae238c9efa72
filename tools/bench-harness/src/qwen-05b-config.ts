import { type DecoderConfig, defineDecoderConfig, qwen25MathPrmRecipe } from '@reward-lens/core';

/** Qwen2-0.5B's shape (494.8M parameters) with Qwen2.5-Math-PRM's head; `small`: a 4-layer, 256-wide stand-in for a quick run. */
export function qwen05bConfig(small = false): DecoderConfig {
  return defineDecoderConfig({
    architecture: 'qwen2',
    hiddenSize: small ? 256 : 896,
    numLayers: small ? 4 : 24,
    numHeads: small ? 4 : 14,
    numKvHeads: 2,
    intermediateSize: small ? 704 : 4864,
    vocabSize: 151936,
    maxPositions: 4096,
    ropeTheta: 1e6,
    rmsNormEps: 1e-6,
    tieWordEmbeddings: true,
    attentionBias: true,
    heads: qwen25MathPrmRecipe.heads,
  });
}
