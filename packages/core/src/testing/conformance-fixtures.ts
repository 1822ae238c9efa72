import { defineDecoderConfig, type DecoderConfig } from '../model/decoder-config.js';
import { tinyDecoderConfig } from '../model/random-decoder.js';

/** Solutions the conformance suite scores: several steps, a one-step solution, different lengths. */
export const conformancePairs: [problem: string, solution: string][] = [
  ['Compute (2+2)*3-5.', 'First, 2+2=4.\nThen, 4*3=12.\nFinally, 12-5=7.'],
  ['What is 15% of 80?', '15% is 0.15.\n0.15 * 80 = 12.\nThe answer is 12.'],
  ['Is 91 prime?', 'No: 91 = 7 * 13.'],
  [
    'Natalia sold clips to 48 of her friends in April, and then she sold half as many clips to her friends in May. How many clips did Natalia sell altogether in April and May?',
    'In April she sold 48 clips.\nIn May she sold half as many: 48 / 2 = 24 clips.\nAltogether she sold 48 + 24 = 72 clips.\nThe answer is 72.\n',
  ],
];

/** Architectures every backend runs: multi-head and grouped-query, with and without QKV bias, tied and untied. */
export const conformanceConfigs: { label: string; config: DecoderConfig }[] = [
  { label: 'llama, grouped-query, tied (the default tiny model)', config: tinyDecoderConfig },
  {
    label: 'qwen2, multi-head, QKV bias, untied LM head',
    config: defineDecoderConfig({
      architecture: 'qwen2',
      hiddenSize: 48,
      numLayers: 3,
      numHeads: 3,
      numKvHeads: 3,
      intermediateSize: 80,
      vocabSize: 512,
      maxPositions: 512,
      ropeTheta: 1_000_000,
      rmsNormEps: 1e-6,
      tieWordEmbeddings: false,
      attentionBias: true,
      heads: [
        { name: 'value', kind: 'value', weight: 'v_head.weight' },
        { name: 'classifier', kind: 'token-classification', numLabels: 2, weight: 'score.weight', bias: 'score.bias' },
        { name: 'lm', kind: 'lm' },
      ],
    }),
  },
];

/** Numeric tolerance from the backend's declared precision. */
export function toleranceFor(precision: 'fp32' | 'fp16' | 'bf16'): number {
  return precision === 'fp32' ? 1e-4 : precision === 'fp16' ? 2e-2 : 5e-2;
}
