import { defineDecoderConfig, type DecoderConfig } from '@reward-lens/core';

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

function withoutHeadDim({ headDim: _headDim, ...config }: DecoderConfig): Omit<DecoderConfig, 'headDim'> {
  return config;
}

/**
 * The 42M-parameter model of the thread benchmarks: hidden 512, 8 layers, 8 heads, intermediate
 * 1376, Llama 2's 32,000-token vocabulary with tied embeddings (41.7M parameters, 16.4M of them
 * the embeddings), a value head.
 */
export const benchDecoderConfig42M = defineDecoderConfig({
  // The same family as benchDecoderConfig, scaled; headDim follows from the new width.
  ...withoutHeadDim(benchDecoderConfig),
  hiddenSize: 512,
  numLayers: 8,
  intermediateSize: 1376,
  vocabSize: 32000,
});
