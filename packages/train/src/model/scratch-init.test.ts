import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { characterTokenizerJson, resolveRecipe } from '@reward-lens/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readScratchInit } from './scratch-init.js';

const config = {
  architectures: ['LlamaForCausalLM'],
  model_type: 'llama',
  hidden_size: 16,
  intermediate_size: 32,
  num_hidden_layers: 1,
  num_attention_heads: 2,
  num_key_value_heads: 2,
  vocab_size: 64,
  max_position_embeddings: 64,
  rms_norm_eps: 1e-6,
};

describe('readScratchInit', () => {
  let folder: string;
  const { heads } = resolveRecipe('trl-token-classification');
  const records = [{ problem: 'ab', steps: ['c', 'd'], stepLabels: [1, 0] }];
  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), 'reward-lens-scratch-init-'));
    await writeFile(join(folder, 'config.json'), JSON.stringify(config));
    await writeFile(join(folder, 'broken.json'), '{ not json');
  });
  afterAll(() => rm(folder, { recursive: true, force: true }));

  it("reads the config with the recipe's heads, and a tokenizer of the data's characters", async () => {
    const init = await readScratchInit({ config: join(folder, 'config.json'), tokenizer: 'characters', records, heads });
    expect(init).toMatchObject({ kind: 'scratch', ...characterTokenizerJson(['ab', 'c', 'd']) });
    expect(init.kind === 'scratch' && init.config.hiddenSize).toBe(16);
  });

  it('a config that is not JSON is a model-load error naming the file', async () => {
    const path = join(folder, 'broken.json');
    await expect(readScratchInit({ config: path, tokenizer: 'characters', records, heads })).rejects.toMatchObject({
      code: 'MODEL_LOAD',
      message: expect.stringContaining('not valid JSON'),
    });
  });
});
