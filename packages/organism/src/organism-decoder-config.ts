import { defineDecoderConfig, type DecoderConfig } from '@reward-lens/core';
import { organismTokenizerJson } from './organism-tokenizer-json.js';

/** The sizes that vary between models of the organism; the rest is fixed. */
export interface OrganismModelSize {
  hiddenSize: number;
  numLayers: number;
  numHeads: number;
  intermediateSize: number;
  /** Default `numHeads` (no grouping). */
  numKvHeads?: number;
}

/**
 * A Llama-architecture config for a model of the organism's tokenizer (`organismTokenizerJson`):
 * its vocabulary, 512 positions (an organism solution with its problem fits with room to spare),
 * tied embeddings, no heads (a trainer adds its recipe's). The default PRM's config is one.
 *
 * @example
 * const config = organismDecoderConfig({ hiddenSize: 128, numLayers: 4, numHeads: 4, intermediateSize: 384 });
 */
export function organismDecoderConfig(size: OrganismModelSize): DecoderConfig {
  const vocab = (organismTokenizerJson().tokenizerJson.model as { vocab: Record<string, number> }).vocab;
  return defineDecoderConfig({
    architecture: 'llama',
    hiddenSize: size.hiddenSize,
    numLayers: size.numLayers,
    numHeads: size.numHeads,
    numKvHeads: size.numKvHeads ?? size.numHeads,
    intermediateSize: size.intermediateSize,
    vocabSize: Math.max(...Object.values(vocab)) + 1,
    maxPositions: 512,
    ropeTheta: 10_000,
    rmsNormEps: 1e-5,
    tieWordEmbeddings: true,
    attentionBias: false,
    heads: [],
  });
}
