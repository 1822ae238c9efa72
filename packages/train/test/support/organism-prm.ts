import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineDecoderConfig } from '@reward-lens/core';
import { createOrganism, organismTokenizerJson, toTrl } from '@reward-lens/organism';
import { smallLlamaFields } from '@reward-lens/test-data';
import { fromTrl } from '../../src/data/parse-records.js';
import type { StepRecord } from '../../src/data/step-record.js';
import { trainProcessRewardModel } from '../../src/trainer.js';

/** Organism items as step records (TRL's prefix labels). */
export function organismRecords(count: number, seed: number): StepRecord[] {
  return createOrganism({ seed })
    .items(count, 0)
    .map((item, index) => fromTrl(toTrl(item) as unknown as Record<string, unknown>, `organism ${seed}:${index}`));
}

/**
 * A small PRM shaped like the default one (Llama, the organism's tokenizer, recipe
 * trl-token-classification), trained for a few steps on organism text: a real model folder in
 * seconds, for tests of what reads a trained model's hidden states.
 */
export async function trainSmallOrganismPrm(steps = 8): Promise<string> {
  const out = await mkdtemp(join(tmpdir(), 'reward-lens-organism-prm-'));
  const tokenizer = organismTokenizerJson();
  const vocabSize = Object.keys((tokenizer.tokenizerJson.model as { vocab: Record<string, number> }).vocab).length;
  const config = defineDecoderConfig({ ...smallLlamaFields, vocabSize, maxPositions: 512, heads: [] });
  await trainProcessRewardModel({
    data: organismRecords(64, 7),
    out,
    init: { kind: 'scratch', config, ...tokenizer },
    steps,
    batchTokens: 2048,
    learningRate: 3e-3,
    warmupSteps: 2,
    seed: 1,
  });
  return out;
}
