import { recipePresets, type ReadingRecipe } from '@reward-lens/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { stepCrossEntropy } from './step-cross-entropy.js';

const softmaxRecipe = recipePresets['trl-token-classification']!;
const sigmoidRecipe = recipePresets['skywork-o1-prm']!;
const threeWay: ReadingRecipe = { ...softmaxRecipe, positiveIndex: 2 };

const logits = (width: number) => fc.array(fc.double({ min: -12, max: 12, noNaN: true }), { minLength: width, maxLength: width });
const target = fc.double({ min: 0, max: 1, noNaN: true });

describe('stepCrossEntropy', () => {
  it('is -(y log p + (1-y) log(1-p)) with p the recipe probability', () => {
    const { loss, probability } = stepCrossEntropy([0.3, 1.7], 0.25, softmaxRecipe);
    const p = Math.exp(1.7) / (Math.exp(0.3) + Math.exp(1.7));
    expect(probability).toBeCloseTo(p, 12);
    expect(loss).toBeCloseTo(-(0.25 * Math.log(p) + 0.75 * Math.log(1 - p)), 12);
    const sigmoid = stepCrossEntropy([-0.8], 1, sigmoidRecipe);
    expect(sigmoid.loss).toBeCloseTo(Math.log(1 + Math.exp(0.8)), 12);
  });

  it('a 2-class softmax is a sigmoid of the logit difference', () => {
    fc.assert(
      fc.property(logits(2), target, ([a, b], y) => {
        const softmax = stepCrossEntropy([a!, b!], y, softmaxRecipe);
        const sigmoid = stepCrossEntropy([b! - a!], y, sigmoidRecipe);
        expect(softmax.loss).toBeCloseTo(sigmoid.loss, 9);
        expect(softmax.gradient[1]).toBeCloseTo(sigmoid.gradient[0]!, 6);
        expect(softmax.gradient[0]).toBeCloseTo(-sigmoid.gradient[0]!, 6);
      }),
    );
  });

  it('its gradient matches central differences, for 1, 2 and 3 outputs and soft targets', () => {
    for (const [recipe, width] of [
      [sigmoidRecipe, 1],
      [softmaxRecipe, 2],
      [threeWay, 3],
    ] as const) {
      fc.assert(
        fc.property(logits(width), target, (values, y) => {
          const { gradient } = stepCrossEntropy(values, y, recipe);
          values.forEach((_, index) => {
            const step = 1e-5;
            const shifted = (sign: number) =>
              stepCrossEntropy(
                values.map((value, at) => (at === index ? value + sign * step : value)),
                y,
                recipe,
              ).loss;
            expect(gradient[index]).toBeCloseTo((shifted(1) - shifted(-1)) / (2 * step), 4);
          });
        }),
        { numRuns: 50 },
      );
    }
  });

  it('stays finite for confident wrong predictions', () => {
    const { loss, gradient } = stepCrossEntropy([-400, 400], 0, softmaxRecipe);
    expect(loss).toBeCloseTo(800, 6);
    expect([...gradient]).toEqual([-1, 1]);
  });
});
