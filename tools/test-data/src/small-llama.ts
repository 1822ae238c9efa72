/**
 * The small Llama that tests build random and briefly trained models on (hidden 32, 2 layers,
 * 4 query heads grouped onto 2 KV heads, MLP 64, tied embeddings): large enough to have
 * grouped-query attention and several layers, small enough to run in milliseconds. Each test
 * adds what it varies (vocabulary, context, heads) and passes the whole to `defineDecoderConfig`:
 *
 * @example
 * defineDecoderConfig({ ...smallLlamaFields, vocabSize: 512, maxPositions: 256, heads: [] });
 *
 * Plain fields, so that this package depends on none of ours.
 */
export const smallLlamaFields = {
  architecture: 'llama',
  hiddenSize: 32,
  numLayers: 2,
  numHeads: 4,
  numKvHeads: 2,
  intermediateSize: 64,
  ropeTheta: 10_000,
  rmsNormEps: 1e-5,
  tieWordEmbeddings: true,
  attentionBias: false,
} as const;
