import { defineDecoderConfig, type ForwardRequestV1, type ReadRequestV1 } from '@reward-lens/spec';

/**
 * A model whose LM head dominates: hidden 512, 8 layers, a 32,000-token vocabulary (Llama 2's,
 * Mistral's), an untied LM head and a value head: the shapes of Math-Shepherd-style PRMs (LM
 * columns at step tags) and value-head PRMs, scaled down.
 */
export const largeVocabularyConfig = defineDecoderConfig({
  architecture: 'mistral',
  hiddenSize: 512,
  numLayers: 8,
  numHeads: 8,
  numKvHeads: 8,
  intermediateSize: 1376,
  vocabSize: 32000,
  maxPositions: 1024,
  ropeTheta: 10000,
  rmsNormEps: 1e-5,
  tieWordEmbeddings: false,
  attentionBias: false,
  heads: [
    { name: 'lm', kind: 'lm' },
    { name: 'value', kind: 'value', weight: 'v_head.weight' },
  ],
});

export const batchSize = 8;
export const sequenceLength = 512;
/** Step boundaries per row: a 16-step solution. */
export const stepsPerRow = 16;

/** What is read: the scenarios of the bench. */
export const headReadScenarios = {
  'value head at 16 steps': (positions: number[][]): ReadRequestV1[] => [{ kind: 'head', head: 'value', positions }],
  'two LM columns at 16 steps': (positions: number[][]): ReadRequestV1[] => [{ kind: 'head', head: 'lm', positions, columns: [648, 387] }],
  'full logits at every position': (): ReadRequestV1[] => [
    { kind: 'head', head: 'lm', positions: Array.from({ length: batchSize }, () => Array.from({ length: sequenceLength }, (_, index) => index)) },
  ],
} as const;

export type HeadReadScenario = keyof typeof headReadScenarios;

/** 8 × 512 tokens, every row full; reads at 16 step ends per row. */
export function headReadRequest(scenario: HeadReadScenario): ForwardRequestV1 {
  const cells = batchSize * sequenceLength;
  const steps = Array.from({ length: batchSize }, (_, row) =>
    Array.from({ length: stepsPerRow }, (_, step) => Math.min(sequenceLength - 1, Math.round(((step + 1) * sequenceLength) / stepsPerRow) - 1 - (row % 3))),
  );
  return {
    batchSize,
    sequenceLength,
    inputIds: Int32Array.from({ length: cells }, (_, index) => (index * 7919) % largeVocabularyConfig.vocabSize),
    attentionMask: new Uint8Array(cells).fill(1),
    reads: headReadScenarios[scenario](steps),
  };
}
