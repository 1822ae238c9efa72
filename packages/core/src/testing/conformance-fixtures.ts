import { defineDecoderConfig, type DecoderConfig, type HeadSpec, tinyDecoderConfig, type WeightDtypeV1 } from '@reward-lens/spec';

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

/** Qwen2.5-Math-PRM's head: `score.0` (hidden × hidden, bias) → ReLU → `score.2` (2 classes, bias). */
export const mlpClassifierHead: HeadSpec = {
  name: 'prm',
  kind: 'token-classification',
  numLabels: 2,
  weight: 'score.2.weight',
  bias: 'score.2.bias',
  hidden: { weight: 'score.0.weight', bias: 'score.0.bias' },
};

/**
 * Architectures and heads every backend runs, covering every head shape the recipe presets load:
 * multi-head and grouped-query attention, with and without QKV biases, tied and untied LM heads,
 * value heads with and without bias, a 2-class classifier, and Qwen2.5-Math-PRM's head with a
 * hidden layer. Inner-layer reads and column reads are made of every head of each.
 */
export const conformanceConfigs: { label: string; config: DecoderConfig }[] = [
  { label: 'llama, grouped-query, tied LM head, value head with bias (the default tiny model)', config: tinyDecoderConfig },
  {
    label: 'qwen2, multi-head, QKV biases, untied LM head, Qwen2.5-Math-PRM head (hidden layer, ReLU, 2 classes)',
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
        mlpClassifierHead,
        { name: 'lm', kind: 'lm' },
      ],
    }),
  },
];

/**
 * How far a weight held as `dtype` (`ModelInfoV1.weightDtype`) may lie from its float32 value, as
 * a fraction of the largest magnitude in its quantization group: half a step of the integer
 * range (1/254 for q8's -127..127, 1/14 for q4's 7 steps each side), the rounding of a 16-bit
 * float's mantissa for fp16 and bf16, nothing for fp32.
 */
export function weightRoundingFor(dtype: WeightDtypeV1 | undefined): number {
  switch (dtype ?? 'fp32') {
    case 'q8':
      return 1 / 254;
    case 'q4':
      return 1 / 14;
    case 'fp16':
      return 2 ** -11;
    case 'bf16':
      return 2 ** -8;
    default:
      return 0;
  }
}

/** Numeric tolerance from the backend's declared precision: |a - b| <= tolerance * max(1, |b|). */
export function toleranceFor(precision: 'fp32' | 'fp16' | 'bf16'): number {
  return precision === 'fp32' ? 1e-4 : precision === 'fp16' ? 2e-2 : 5e-2;
}
