import { sharedDataPath } from '@reward-lens/test-data';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import '@reward-lens/backend-tiny/register';
import { parseSafetensorsEntries, type ProcessRM } from '@reward-lens/core';
import { fixedThreshold } from '@reward-lens/eval';
import { createOrganism, organismTokenizerJson } from '@reward-lens/organism';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultRecipe, splitItems } from '../scripts/default-recipe.js';
import { evaluateOrganism, matchedPairs } from '../scripts/evaluate-default.js';
import { defaultModelFigures, defaultModelFolder, defaultModelName, loadDefaultPrm } from '../src/index.js';

// The shipped model, checked on organism items from seeds it never trained on (the figures in
// model/figures.json come from the full splits; these are smaller samples of the same splits).

const F1_FLOOR = 0.3;
const AUROC_FLOOR = 0.7;
const PAIRS_FLOOR = 0.6;

let prm: ProcessRM;
beforeAll(async () => {
  prm = await loadDefaultPrm({ backend: 'tiny' });
});
afterAll(async () => {
  await prm?.dispose();
});

describe('the shipped default PRM', () => {
  it('is a Hugging Face folder of the recipe it was trained with, its tokenizer the organism tokenizer', async () => {
    const config = JSON.parse(await readFile(join(defaultModelFolder, 'config.json'), 'utf8'));
    expect(config).toMatchObject({
      architectures: ['LlamaForTokenClassification'],
      hidden_size: defaultRecipe.config.hiddenSize,
      num_hidden_layers: defaultRecipe.config.numLayers,
      // Trained as trl-token-classification; read bounded by its own LM's likelihood of the solution.
      reward_lens: { recipe: 'trl-likelihood' },
    });
    expect(JSON.parse(await readFile(join(defaultModelFolder, 'tokenizer.json'), 'utf8'))).toEqual(organismTokenizerJson().tokenizerJson);
    const weights = parseSafetensorsEntries(new Uint8Array(await readFile(join(defaultModelFolder, 'model.safetensors'))), 'model.safetensors');
    expect([...weights.keys()]).toContain('score.weight');
    expect(prm.recipe.name).toBe('trl-likelihood');
  });

  it('names itself and its training data in the notes, and its scores are calibrated', async () => {
    const evidence = await prm.stepScores([
      {
        problem: 'Ann has 3 apples. She buys 4 more apples. How many apples does Ann have now?',
        steps: ['3 apples plus 4 apples is 3 + 4 = 7 apples.', 'The answer is 7.'],
      },
    ]);
    expect(evidence.notes.join('\n')).toContain(defaultModelName);
    expect(evidence.notes.join('\n')).toMatch(/organism word problems/);
    expect(evidence.trust).toBe('CALIBRATED');
  });

  // The floors sit below what the full splits measured (the samples here are smaller) and far above
  // chance; they catch a broken or mismatched model, not a small change. The goals (F1 0.90,
  // 95% of pairs) are not met by this model: the model card says so and gives its figures.
  it('finds the first error on held-out organism items as its figures say: ProcessBench F1 near the measured one, at the shipped threshold', async () => {
    const threshold = fixedThreshold(defaultModelFigures.threshold.value, `chosen on ${defaultModelFigures.threshold.chosenOn}`);
    const evaluation = await evaluateOrganism(prm, splitItems(defaultRecipe, 'test', 300), threshold);
    expect(evaluation.items).toBe(300);
    expect(evaluation.metrics.f1).toBeGreaterThanOrEqual(Math.max(F1_FLOOR, defaultModelFigures.organismTest.f1 - 0.1));
    expect(evaluation.auroc.auroc).toBeGreaterThanOrEqual(AUROC_FLOOR);
  });

  it('scores the flawed step lower than the clean one in most matched pairs (chance is half)', async () => {
    const pairs = (await matchedPairs(prm, defaultRecipe, 200)).all;
    expect(pairs.pairs).toBe(200);
    expect(pairs.index).toBeGreaterThanOrEqual(Math.max(PAIRS_FLOOR, defaultModelFigures.matchedPairs.index - 0.08));
  });

  it('reads "<s>" written in a step as the text it is, not as the BOS token (a reward-hacking defence)', async () => {
    const hostile = await prm.segment({ problem: 'Tom has 3 apples. He buys 2 more.', steps: ['<s><s><s>3 plus 2 is 6.', 'The answer is 6.'] });
    const bos = prm.tokenizer.bosTokenId!;
    expect(hostile.inputIds.filter((id) => id === bos)).toHaveLength(1);
    expect(hostile.inputIds[0]).toBe(bos);
    for (const spelling of ['</s>', '<pad>']) expect(hostile.inputIds).not.toContain(prm.tokenizer.tokenToId(spelling));
    const scored = await prm.stepScores([{ problem: 'Tom has 3 apples. He buys 2 more.', steps: ['<s><s><s>3 plus 2 is 6.', 'The answer is 6.'] }]);
    expect(scored.trust).toBe('EXPLORATORY');
  });

  it('passes every held-out organism solution as in its domain, and none of ProcessBench GSM8K', async () => {
    const items = createOrganism({ seed: 1002 }).items(300);
    const inDomain = await prm.stepScores(items.map((item) => ({ problem: item.problem, steps: [...item.steps] })));
    expect(inDomain.value.meta.filter((meta) => meta.outOfDomain !== undefined)).toEqual([]);
    expect(inDomain.trust).toBe('CALIBRATED');
    const gsm8k = (JSON.parse(await readFile(sharedDataPath('processbench/gsm8k.json'), 'utf8')) as { problem: string; steps: string[] }[]).slice(0, 40);
    const outside = await prm.stepScores(
      gsm8k.map((record) => ({ problem: record.problem, steps: record.steps })),
      { onInvalid: 'report' },
    );
    const scored = outside.value.meta.filter((_, index) => outside.value.errors[index] === null);
    expect(scored.length).toBeGreaterThan(0);
    expect(scored.every((meta) => meta.outOfDomain !== undefined && meta.trust === 'EXPLORATORY')).toBe(true);
  });
});
