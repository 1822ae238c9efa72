import { createTinyBackend } from '@reward-lens/backend-tiny';
import { createHfTokenizer, ProcessRM, recipePresets } from '@reward-lens/core';
import { describe, expect, it } from 'vitest';
import { initializeDecoder } from '../model/initialize-decoder.js';
import { parityConfig, parityTokenizer } from '../../test/support/parity-task.js';
import { checkStepRecord } from './step-record.js';
import { lastKnownGoodStep, toTrainingExample, type TrainingExample } from './training-example.js';

const recipe = recipePresets['trl-token-classification']!;
const tokenizer = createHfTokenizer(parityTokenizer.tokenizerJson, parityTokenizer.tokenizerConfig);
const prm = ProcessRM.fromBackend(createTinyBackend(initializeDecoder({ ...parityConfig, heads: recipe.heads }, 0)), tokenizer, { recipe });

function example(stepLabels: number[]): TrainingExample {
  const steps = ['even 2', 'even 4', 'even 3', 'even 8'].slice(0, stepLabels.length);
  const result = toTrainingExample(prm, { problem: 'Check each claim.', steps, stepLabels }, { untilFirstError: false });
  if ('skipped' in result) throw new Error(result.skipped);
  return result;
}

/** The characters of tokens `[start, end)` of the example's laid-out text. */
function textOf(value: TrainingExample, start: number, end: number): string {
  if (end <= start) return '';
  const pair = prm.tokenize({ problem: value.record.problem, steps: value.record.steps });
  return pair.text.slice(pair.offsets[start]![0], pair.offsets[end - 1]![1]);
}

/** The text of the tokens the auxiliary loss predicts. */
const predictedText = (value: TrainingExample) => textOf(value, value.correctText[0], value.correctText[1]);

describe('lastKnownGoodStep', () => {
  it('is the last step before the first one labelled wrong that is labelled good, or implied good by a later label', () => {
    expect(lastKnownGoodStep([1, 1, 1])).toBe(2);
    expect(lastKnownGoodStep([1, 0, 1])).toBe(0);
    expect(lastKnownGoodStep([0, 1])).toBe(-1);
    expect(lastKnownGoodStep([Number.NaN, Number.NaN, 1])).toBe(2);
    expect(lastKnownGoodStep([Number.NaN, Number.NaN, 0])).toBe(-1);
    expect(lastKnownGoodStep([1, Number.NaN, 0])).toBe(0);
    expect(lastKnownGoodStep([0.8, 0.3])).toBe(0);
  });
});

describe('toTrainingExample', () => {
  it('marks the steps a correct solver writes, with their separators, and never the problem', () => {
    expect(predictedText(example([1, 1, 1, 1]))).toBe('even 2\neven 4\neven 3\neven 8\n');
    expect(predictedText(example([1, 1, 0, 0]))).toBe('even 2\neven 4\n');
    expect(predictedText(example([0, 0]))).toBe('');
    // An outcome label says the whole solution is good, or nothing about where it went wrong.
    expect(predictedText(example([Number.NaN, Number.NaN, 1]))).toBe('even 2\neven 4\neven 3\n');
    expect(predictedText(example([Number.NaN, Number.NaN, 0]))).toBe('');
    const value = example([1, 1]);
    expect(value.inputIds[0]).toBe(tokenizer.bosTokenId);
    expect(textOf(value, 1, value.correctText[0])).toBe('Check each claim.');
  });

  it('with token-level labels, reads the head at every token of the solution: right until the first wrong character, then wrong', () => {
    const record = { problem: 'Check each claim.', steps: ['even 2', 'even 5', 'even 4'], stepLabels: [1, 0, 0], correctPrefix: [6, 5, 0] };
    const read = (untilFirstError: boolean) => {
      const value = toTrainingExample(prm, record, { untilFirstError });
      if ('skipped' in value) throw new Error(value.skipped);
      const pair = prm.tokenize({ problem: record.problem, steps: record.steps });
      return { value, text: value.readPositions.map((position) => pair.text.slice(...pair.offsets[position]!)), pair };
    };
    const all = read(false);
    // Each step's characters, then its separator (the step's read position, labelled with the step's label).
    expect(all.text.join('')).toBe('even 2\neven 5\neven 4\n');
    expect(all.value.targets).toEqual([1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
    for (const [step, position] of all.pair.readPositions.entries()) {
      expect(all.value.targets[all.value.readPositions.indexOf(position)]).toBe(record.stepLabels[step]);
    }
    const untilError = read(true);
    expect(untilError.text.join('')).toBe('even 2\neven 5\n');
    expect(untilError.value.targets).toEqual(all.value.targets.slice(0, 14));
  });

  it('refuses token-level labels that do not fit the steps', () => {
    const base = { problem: 'Check each claim.', steps: ['even 2', 'even 5'], stepLabels: [1, 0] };
    expect(() => checkStepRecord({ ...base, correctPrefix: [6] }, 'record 0')).toThrow(/one length per step/);
    expect(() => checkStepRecord({ ...base, correctPrefix: [7, 0] }, 'record 0')).toThrow(
      /step 0 must be a whole number of characters from 0 to the step's 6, got 7/,
    );
    expect(() => checkStepRecord({ ...base, stepLabels: [Number.NaN, 0], correctPrefix: [6, 5] }, 'record 0')).toThrow(/needs a label on every step/);
  });
});
