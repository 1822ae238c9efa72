import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineDecoderConfig } from '@reward-lens/core';
import { afterAll, describe, expect, it } from 'vitest';
import { defaultRecipe, trainingRecords, type DefaultRecipe } from '../scripts/default-recipe.js';
import { continuedFolder, trainedRun, trainRecipe } from '../scripts/train-recipe.js';

const take = <T>(records: Iterator<T>, count: number): T[] => Array.from({ length: count }, () => records.next().value as T);

// The default recipe's stages, at a size that trains in seconds: the same code path as `retrain`.
const small: DefaultRecipe = {
  ...defaultRecipe,
  config: defineDecoderConfig({ ...defaultRecipe.config, hiddenSize: 16, numLayers: 1, numHeads: 2, numKvHeads: 2, intermediateSize: 32 }),
  steps: 3,
  batchTokens: 512,
  warmupSteps: 1,
  curriculumItems: 10,
  heldOutItems: 8,
  continuations: [{ steps: 2, learningRate: 1e-3, warmupSteps: 1 }],
};

const folders: string[] = [];
afterAll(async () => {
  await Promise.all(folders.map((folder) => rm(folder, { recursive: true, force: true })));
});

describe('the default recipe', () => {
  it.each([0, 4, 9, 10, 11, 25])('streams from record %i on exactly the records after the first %i', (from) => {
    const whole = take(trainingRecords(small), from + 6);
    expect(take(trainingRecords(small, 'process', from), 6)).toEqual(whole.slice(from));
  });

  it('trains its continuation from the first stage on the records after it, and trainedRun adds the stages up', async () => {
    const work = await mkdtemp(join(tmpdir(), 'reward-lens-recipe-'));
    folders.push(work);
    const run = await trainRecipe(small, 'process', join(work, 'train'));
    const first = await trainedRun(join(work, 'train'));
    expect(run.folder).toBe(continuedFolder(join(work, 'train')));
    expect(first).toMatchObject({ step: 3, folder: join(work, 'train') });
    expect(run.step).toBe(5);
    expect(run.records).toBeGreaterThan(first.records);
    expect(run.tokens).toBeGreaterThan(first.tokens);
    // Read back from the folder alone, as `retrain --trained` does: the same run, both stages.
    expect(await trainedRun(run.folder)).toEqual(run);
  });
});
