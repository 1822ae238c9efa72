import '@reward-lens/backend-tiny/register';
import type { ProcessRM } from '@reward-lens/core';
import { fixedThreshold } from '@reward-lens/eval';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultRecipe, splitItems } from '../scripts/default-recipe.js';
import { evaluateOrganism, matchedPairs } from '../scripts/evaluate-default.js';
import { defaultModelFigures, loadDefaultPrm } from '../src/index.js';

// The shipped model held quantized, measured as its figures are and against its own fp32 self on
// the same held-out samples (the full splits: `pnpm --filter @reward-lens/model-default
// evaluate-dtypes`). Goals: within 0.01 of fp32 at bf16 and q8, within 0.03 at q4.
const goals = { bf16: 0.01, q8: 0.01, q4: 0.03 } as const;
const threshold = fixedThreshold(defaultModelFigures.threshold.value, `chosen on ${defaultModelFigures.threshold.chosenOn}`);
const items = splitItems(defaultRecipe, 'test', 300);

async function measure(prm: ProcessRM): Promise<{ f1: number; pairs: number }> {
  const evaluation = await evaluateOrganism(prm, items, threshold);
  return { f1: evaluation.metrics.f1, pairs: (await matchedPairs(prm, defaultRecipe, 200)).all.index };
}

let fp32: { f1: number; pairs: number };
beforeAll(async () => {
  await using prm = await loadDefaultPrm({ backend: 'tiny' });
  fp32 = await measure(prm);
}, 120_000);

describe('the shipped default PRM with quantized weights', () => {
  const opened: ProcessRM[] = [];
  afterAll(() => Promise.all(opened.map((prm) => prm.dispose())));

  for (const dtype of ['bf16', 'q8', 'q4'] as const) {
    it(`${dtype}: organism F1 and matched pairs within ${goals[dtype]} of fp32's, the backend saying what it holds`, async () => {
      const prm = await loadDefaultPrm({ backend: 'tiny', dtype });
      opened.push(prm);
      expect(prm.source.weightDtype).toBe(dtype);
      const quantized = await measure(prm);
      expect(Math.abs(quantized.f1 - fp32.f1)).toBeLessThanOrEqual(goals[dtype]);
      expect(Math.abs(quantized.pairs - fp32.pairs)).toBeLessThanOrEqual(goals[dtype]);
      const evidence = await prm.stepScores([{ problem: items[0]!.problem, steps: [...items[0]!.steps] }]);
      expect(evidence.notes.join('\n')).toContain(`backend "tiny" holds the projection weights as ${dtype}`);
    }, 120_000);
  }
});
