import { defineDecoderConfig } from '@reward-lens/core';

/**
 * The model the CPU benchmarks compare backends on, so that their figures describe the same
 * weights: hidden 256, 4 layers, 8 heads, intermediate 688 (Llama's 8/3 ratio, rounded up to a
 * multiple of 16), a value head.
 */
export const benchDecoderConfig = defineDecoderConfig({
  architecture: 'llama',
  hiddenSize: 256,
  numLayers: 4,
  numHeads: 8,
  numKvHeads: 8,
  intermediateSize: 688,
  vocabSize: 512,
  maxPositions: 1024,
  ropeTheta: 10000,
  rmsNormEps: 1e-5,
  tieWordEmbeddings: true,
  attentionBias: false,
  heads: [{ name: 'value', kind: 'value', weight: 'v_head.weight' }],
});
