import { defineDecoderConfig, tinyDecoderConfig, type DecoderConfig } from '@reward-lens/spec';
import { conformanceConfigs } from '@reward-lens/core/testing';

// The conformance kit's Qwen2 (multi-head, QKV bias, untied, a value head, a classifier, Qwen2.5-Math-PRM's head, the LM head).
const conformanceQwen2 = conformanceConfigs.find(({ config }) => config.architecture === 'qwen2')!.config;

/** Architectures the exporter must get right: grouped-query and multi-head, QKV bias, tied and untied, every head kind. */
export const exportTestConfigs: { label: string; config: DecoderConfig }[] = [
  { label: 'llama, grouped-query 4/2, tied LM head, value + classifier + lm', config: tinyDecoderConfig },
  {
    label: "qwen2, multi-head 3/3, QKV bias, untied LM head, biased classifier, Qwen2.5-Math-PRM's head (hidden layer + ReLU)",
    config: defineDecoderConfig({
      ...conformanceQwen2,
      vocabSize: 300,
      maxPositions: 256,
      heads: conformanceQwen2.heads.map((head) => (head.name === 'classifier' ? { ...head, numLabels: 3 } : head)),
    }),
  },
  {
    label: 'mistral, grouped-query 8/2, head size 16 with hidden 32, value head only',
    config: defineDecoderConfig({
      architecture: 'mistral',
      hiddenSize: 32,
      numLayers: 2,
      numHeads: 8,
      numKvHeads: 2,
      headDim: 16,
      intermediateSize: 64,
      vocabSize: 200,
      maxPositions: 128,
      ropeTheta: 10000,
      rmsNormEps: 1e-5,
      tieWordEmbeddings: false,
      attentionBias: false,
      heads: [{ name: 'reward', kind: 'value', weight: 'reward_head.weight', bias: 'reward_head.bias' }],
    }),
  },
];
