import { ProcessRM } from '@reward-lens/core';
import '@reward-lens/backend-tiny/register';
import { describe, expect, it } from 'vitest';
import { attributeSteps } from './token-attribution.js';

const pair = ['Compute (2+2)*3-5.', 'First, 2+2=4.\nThen, 4*3=12.\nFinally, 12-5=7.'] as const;

describe('attributeSteps', () => {
  it('attributes each step to the tokens up to its read position, gradient × input and integrated gradients, with the top tokens', async () => {
    const prm = await ProcessRM.fromTiny({ seed: 0 });
    const explained = await attributeSteps(prm, pair, { integrationSteps: 32, top: 4 });
    const tokenized = prm.tokenize(pair);
    expect(explained.text).toBe(tokenized.text);
    expect(explained.attributions.map((step) => step.step)).toEqual([0, 1, 2]);
    const gradients = (await prm.stepGradients([pair], { integratedGradients: { steps: 32 } })).value.pairs[0]!;
    for (const step of explained.attributions) {
      expect(step.readTokenIndex).toBe(tokenized.readPositions[step.step]);
      expect(step.tokens).toHaveLength(step.readTokenIndex + 1);
      expect(step.tokens.map((token) => token.text).join('')).toBe(tokenized.text.slice(0, tokenized.offsets[step.readTokenIndex]![1]));
      const raw = gradients.steps[step.step]!;
      expect(step.tokens.map((token) => token.integratedGradients)).toEqual([...raw.integratedGradients!.subarray(0, step.readTokenIndex + 1)]);
      expect(step.tokens.map((token) => token.gradientTimesInput)).toEqual([...raw.gradientTimesInput.subarray(0, step.readTokenIndex + 1)]);
      // Top tokens: the largest by absolute value, with text, in order.
      for (const key of ['integratedGradients', 'gradientTimesInput'] as const) {
        const top = step.top[key];
        expect(top).toHaveLength(4);
        const magnitudes = top.map((token) => Math.abs(token[key]));
        expect(magnitudes).toEqual([...magnitudes].sort((a, b) => b - a));
        const rest = step.tokens.filter((token) => token.text.trim() !== '' && !top.includes(token));
        for (const token of rest) expect(Math.abs(token[key])).toBeLessThanOrEqual(magnitudes.at(-1)!);
      }
      const difference = step.integration.scoreAtInput - step.integration.scoreAtBaseline;
      expect(Math.abs(step.integration.sum - difference)).toBeLessThan(0.02 * Math.max(Math.abs(difference), 0.1));
    }
  });
});
