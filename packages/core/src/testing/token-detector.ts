import type { DecoderModel } from '@reward-lens/spec';
import type { StepDetector } from '../step-detection/step-detector.js';

/**
 * A hand-made step detector for tests, no training needed: a linear probe on layer 0 (the
 * embeddings) whose weight is the embedding row of `tokenId`, so its logit is large exactly at
 * that token (other rows of a random model are nearly orthogonal to it) and a step ends after it.
 * Its held-out figures are made up, and say so.
 *
 * @example
 * const sentenceEnd = tokenizer.encode('a. b').ids[1]; // the ". " token of the byte-BPE tokenizer
 * ProcessRM.fromBackend(backend, tokenizer, { stepDetector: tokenDetector(model, sentenceEnd) });
 */
export function tokenDetector(model: DecoderModel, tokenId: number, options: { name?: string; recipe?: string } = {}): StepDetector {
  const { hiddenSize, numLayers, vocabSize } = model.config;
  const row = model.tensors.get('model.embed_tokens.weight')!.subarray(tokenId * hiddenSize, (tokenId + 1) * hiddenSize);
  const squared = row.reduce((sum, value) => sum + value * value, 0);
  const sharpness = 20;
  return {
    format: 'reward-lens.step-detector',
    version: 1,
    name: options.name ?? `after-token-${tokenId}`,
    model: { hiddenSize, numLayers, vocabSize, recipe: options.recipe ?? 'plain-value' },
    layer: 0,
    lookahead: 0,
    probe: {
      format: 'reward-lens.probe',
      version: 1,
      inputs: hiddenSize,
      standardize: { mean: new Array(hiddenSize).fill(0), scale: new Array(hiddenSize).fill(1) },
      layers: [
        { inputs: hiddenSize, outputs: 1, weight: Array.from(row, (value) => (sharpness * value) / squared), bias: [-sharpness / 2], activation: 'none' },
      ],
    },
    threshold: 0.5,
    heldOut: { precision: 0.99, recall: 0.98, f1: 0.985, boundaries: 100, solutions: 40, data: 'made up for a test (tokenDetector)' },
  };
}
