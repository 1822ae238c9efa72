import { defineDecoderConfig, type DecoderConfig } from '@reward-lens/core';
import { smallLlamaFields } from '@reward-lens/test-data';
import { characterTokenizerJson } from '@reward-lens/tokenizers';
import type { StepRecord } from '../../src/data/step-record.js';
import { TrainingRandom } from '../../src/random.js';

/**
 * A small synthetic step-labelled task: each step claims a digit is even (`even 4`), and is
 * correct exactly when it is. A model learns it by attending from the step's end to its digit.
 */
export function parityRecords(count: number, seed: number): StepRecord[] {
  const random = new TrainingRandom(seed);
  return Array.from({ length: count }, (_, index) => {
    const steps = Array.from({ length: 2 + Math.floor(random.next() * 4) }, () => `even ${Math.floor(random.next() * 10)}`);
    return { id: `parity-${seed}-${index}`, problem: 'Check each claim.', steps, stepLabels: steps.map((step) => (Number(step.at(-1)) % 2 === 0 ? 1 : 0)) };
  });
}

export const parityTokenizer = characterTokenizerJson(['Check each claim.\neven 0123456789']);

export const parityConfig: DecoderConfig = defineDecoderConfig({ ...smallLlamaFields, vocabSize: 32, maxPositions: 128, tieWordEmbeddings: false, heads: [] });
