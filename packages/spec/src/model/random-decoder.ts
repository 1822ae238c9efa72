import { defineDecoderConfig, expectedTensorShapes, type DecoderConfig } from './decoder-config.js';
import type { DecoderModel } from './decoder-model.js';
import { createSeededRandom } from './seeded-random.js';

/** The seeded tiny PRM: a small Llama-family decoder with a scalar value head and an LM head. */
export const tinyDecoderConfig: DecoderConfig = defineDecoderConfig({
  architecture: 'llama',
  hiddenSize: 64,
  numLayers: 2,
  numHeads: 4,
  numKvHeads: 2,
  intermediateSize: 128,
  vocabSize: 512,
  maxPositions: 1024,
  ropeTheta: 10000,
  rmsNormEps: 1e-5,
  tieWordEmbeddings: true,
  attentionBias: false,
  heads: [
    { name: 'value', kind: 'value', weight: 'v_head.weight', bias: 'v_head.bias' },
    { name: 'classifier', kind: 'token-classification', numLabels: 2, weight: 'score.weight' },
    { name: 'lm', kind: 'lm' },
  ],
});

/**
 * Deterministic random weights for a config: uniform with the spread of N(0, 0.08²) for
 * projections (four times Hugging Face's 0.02, so that a random model's scores vary visibly
 * between steps), norms at 1 with a small jitter, biases small.
 * The same seed and config give bit-identical tensors on every platform.
 */
export function createRandomDecoder(options: { seed: number; config?: DecoderConfig }): DecoderModel {
  const config = options.config ?? tinyDecoderConfig;
  const random = createSeededRandom(options.seed);
  const projectionHalfWidth = 0.08 * Math.sqrt(3);
  const tensors = new Map<string, Float32Array>();
  for (const [name, shape] of expectedTensorShapes(config)) {
    const size = shape.reduce((product, dimension) => product * dimension, 1);
    const tensor = new Float32Array(size);
    const isNorm = name.endsWith('layernorm.weight') || name === 'model.norm.weight';
    const isBias = name.endsWith('.bias');
    for (let index = 0; index < size; index++) {
      const uniform = random() * 2 - 1;
      tensor[index] = isNorm ? 1 + 0.1 * uniform : isBias ? 0.01 * uniform : projectionHalfWidth * uniform;
    }
    tensors.set(name, tensor);
  }
  return { config, tensors };
}
