import { describe, expect, it } from 'vitest';
import { decoderModelInfo, tinyDecoderConfig } from '@reward-lens/spec';

import { plainValueRecipe } from '../recipes/reading-recipe.js';
import { describeStepDetector, stepDetectorMismatch, validateStepDetector, type StepDetector } from './step-detector.js';

const hiddenSize = 4;
const detector: StepDetector = {
  format: 'reward-lens.step-detector',
  version: 1,
  name: 'organism-l1',
  model: { hiddenSize, numLayers: 2, vocabSize: 512, recipe: 'plain-value' },
  layer: 1,
  lookahead: 1,
  probe: {
    format: 'reward-lens.probe',
    version: 1,
    inputs: 2 * hiddenSize,
    standardize: { mean: new Array(8).fill(0), scale: new Array(8).fill(1) },
    layers: [{ inputs: 8, outputs: 1, weight: new Array(8).fill(0.1), bias: [0], activation: 'none' }],
  },
  threshold: 0.4,
  heldOut: { precision: 0.97, recall: 0.96, f1: 0.965, boundaries: 812, solutions: 200, data: 'organism seed 1' },
  training: { solutions: 800 },
};

describe('validateStepDetector', () => {
  it('reads what it writes (JSON), and names a detector with its probe, layer and held-out figures', () => {
    expect(validateStepDetector(JSON.parse(JSON.stringify(detector)))).toEqual(detector);
    expect(describeStepDetector(detector)).toBe(
      'learned step-boundary detector "organism-l1" (linear probe on layer 1 with one token of lookahead, threshold 0.400; held-out precision 0.970, recall 0.960, F1 0.965 on 812 boundaries of 200 solutions: organism seed 1)',
    );
  });

  it('refuses a detector it cannot apply, naming the field', () => {
    const broken = (change: (copy: Record<string, unknown>) => void) => {
      const copy = JSON.parse(JSON.stringify(detector));
      change(copy);
      return () => validateStepDetector(copy, 'step-detector.json');
    };
    expect(broken((copy) => (copy.version = 2))).toThrow(/step-detector.json: version 2 is not supported/);
    expect(broken((copy) => (copy.layer = 3))).toThrow(/layer 3 is past the model's 2 layers/);
    expect(broken((copy) => (copy.lookahead = 0))).toThrow(/the probe reads 8 features; hidden size 4 with lookahead 0 gives 4/);
    expect(broken((copy) => (copy.threshold = 1))).toThrow(/threshold must be a probability strictly between 0 and 1/);
    expect(broken((copy) => ((copy.heldOut as { recall: number }).recall = 1.2))).toThrow(/heldOut.recall must be a number in \[0, 1\]/);
    expect(broken((copy) => ((copy.model as { recipe?: string }).recipe = undefined))).toThrow(/model.recipe must name the reading recipe/);
    expect(broken((copy) => ((copy.probe as { layers: unknown[] }).layers = []))).toThrow(/probe: layers must be a non-empty array/);
  });

  it('says why it does not fit a model or a recipe', () => {
    const info = decoderModelInfo(tinyDecoderConfig, 'tiny');
    expect(stepDetectorMismatch(detector, info, plainValueRecipe)).toBe('step detector "organism-l1" was fitted for hidden size 4, the model\'s is 64');
    const fitting = { ...detector, model: { ...detector.model, hiddenSize: 64 } };
    expect(stepDetectorMismatch(fitting, info, plainValueRecipe)).toBeNull();
    // A recipe laying the text out alike reads the same hidden states: the detector serves it.
    expect(stepDetectorMismatch(fitting, info, { ...plainValueRecipe, name: 'same-layout' })).toBeNull();
    expect(stepDetectorMismatch(fitting, info, { ...plainValueRecipe, name: 'other', addBos: !plainValueRecipe.addBos })).toMatch(
      /recipe "plain-value", the model is read with "other"/,
    );
  });
});
