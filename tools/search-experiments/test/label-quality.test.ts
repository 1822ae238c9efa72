import { createOrganism, createOrganismPolicy, toProcessBench } from '@reward-lens/organism';
import { describe, expect, it } from 'vitest';
import { continuable, labelQuality, labelSteps, trueStepLabels, type LabelledStep } from '../src/lib/label-quality.js';
import { labelledRecord, processBenchRecords, smallOrganismConfig } from '../src/lib/train-comparison.js';
import { generatorPolicy, stepLinesPrompt } from '@reward-lens/search';

const items = createOrganism({ seed: 8, steps: [3, 5], maxNumber: 20 }).items(30);

describe('labelQuality', () => {
  it('measures hard and soft labels against the truth, and the closed form 1 - (1 - P)^N', () => {
    const steps: LabelledStep[] = [
      { truth: true, exact: 0.5, value: 0.5 },
      { truth: true, exact: 0.5, value: 0 },
      { truth: false, exact: 0.25, value: 0.5 },
      { truth: false, exact: 0, value: 0 },
    ];
    const quality = labelQuality(steps, 2);
    // Labelled correct (v > 0): steps 0 and 2; right: steps 0 and 3.
    expect(quality).toMatchObject({ rollouts: 2, steps: 4, wrongSteps: 2, accuracy: 0.5, falseCorrect: 0.5, falseWrong: 0.5 });
    // P(labelled correct) = 1 - (1 - P)^2: 0.75, 0.75, 0.4375, 0.
    expect(quality.expectedAccuracy).toBeCloseTo((0.75 + 0.75 + (1 - 0.4375) + 1) / 4, 12);
    expect(quality.expectedFalseCorrect).toBeCloseTo(0.4375 / 2, 12);
    expect(quality.expectedFalseWrong).toBeCloseTo(0.25, 12);
    expect(quality.softRmse).toBeCloseTo(Math.sqrt((0 + 0.25 + 0.0625 + 0) / 4), 12);
    expect(quality.expectedSoftRmse).toBeCloseTo(Math.sqrt((0.25 + 0.25 + 0.1875 + 0) / 4 / 2), 12);
  });
});

describe("labelSteps with the organism's policy", () => {
  it('an error-free policy labels exactly where the solution is on track, the closed form (0 or 1) with no noise', async () => {
    const organism = createOrganismPolicy({ errorProbability: 0 });
    const usable = items.filter((item) => continuable(organism, item));
    const labelled = await labelSteps(generatorPolicy(organism, { prompt: stepLinesPrompt }), organism, usable, 3, 0);
    for (const [index, steps] of labelled.entries()) {
      const item = usable[index]!;
      expect(steps.map((step) => step.truth)).toEqual(trueStepLabels(item));
      expect(steps.map((step) => step.value)).toEqual(steps.map((step) => step.exact));
      // On track equals "no error so far" except after a compensating error (back on track, but flawed).
      if (item.errorKind !== 'compensating') expect(steps.map((step) => step.value === 1)).toEqual(trueStepLabels(item));
    }
    const quality = labelQuality(labelled.flat(), 3);
    expect(quality.softRmse).toBe(0);
    expect(quality.accuracy).toBeCloseTo(quality.expectedAccuracy, 12);
  });

  it('draws each item its own rollouts: the same solution twice gets values of its own each time', async () => {
    const organism = createOrganismPolicy({ errorProbability: 0.25, rescueProbability: 0.3 });
    const item = items.find((each) => continuable(organism, each) && each.steps.length >= 4)!;
    const [first, second] = await labelSteps(generatorPolicy(organism, { prompt: stepLinesPrompt }), organism, [item, item], 16, 0);
    expect(first!.map((step) => step.exact)).toEqual(second!.map((step) => step.exact));
    expect(first!.slice(0, -1).map((step) => step.value)).not.toEqual(second!.slice(0, -1).map((step) => step.value));
  });

  it('with errors and rescues, the measured label rates follow the closed form (4 binomial standard deviations)', async () => {
    const organism = createOrganismPolicy({ errorProbability: 0.25, rescueProbability: 0.3 });
    const usable = items.filter((item) => continuable(organism, item));
    const labelled = (await labelSteps(generatorPolicy(organism, { prompt: stepLinesPrompt }), organism, usable, 4, 2)).flat();
    const quality = labelQuality(labelled, 4);
    // Each step's hard label is an independent Bernoulli draw with the closed-form odds.
    const odds = labelled.map((step) => 1 - (1 - step.exact) ** 4);
    const spread = Math.sqrt(odds.reduce((sum, p) => sum + p * (1 - p), 0)) / labelled.length;
    expect(Math.abs(quality.accuracy - quality.expectedAccuracy)).toBeLessThanOrEqual(4 * spread);
    expect(quality.wrongSteps).toBeGreaterThan(10);
  });
});

describe('records for training', () => {
  it("true labels are ProcessBench's: correct before the first error", () => {
    for (const item of items) {
      const record = labelledRecord(item, trueStepLabels(item));
      const first = record.stepLabels.indexOf(0);
      expect(first).toBe(item.firstErrorStep);
      expect(processBenchRecords([item])[0]).toMatchObject({ problem: item.problem, steps: [...item.steps] });
      expect(toProcessBench(item).label).toBe(item.firstErrorStep);
    }
  });

  it("the small config's vocabulary covers the organism tokenizer", () => {
    const { config, tokenizerJson } = smallOrganismConfig({ hiddenSize: 32, numLayers: 1, numHeads: 2, intermediateSize: 64 });
    const vocab = (tokenizerJson as { model: { vocab: Record<string, number> } }).model.vocab;
    expect(config.vocabSize).toBe(Object.keys(vocab).length);
    expect(config.numKvHeads).toBe(2);
  });
});
