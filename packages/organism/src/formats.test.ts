import { InvalidInputError } from '@reward-lens/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { firstErrorOfLabels, pairRecords, readProcessBenchRecord, readTrlRecord, toProcessBench, toTrl } from './formats.js';
import { createOrganism } from './organism.js';
import { verifySolution } from './verify-solution.js';

const throughJson = <T>(value: T): unknown => JSON.parse(JSON.stringify(value));

describe('ProcessBench and TRL records', () => {
  it('round-trip through JSON, and the verifier reads the same label from what comes back', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 2 ** 31 - 1 }), fc.nat({ max: 10_000 }), (seed, index) => {
        const item = createOrganism({ seed }).item(index);

        const processBench = readProcessBenchRecord(throughJson(toProcessBench(item)));
        expect(processBench).toEqual({
          id: item.id,
          generator: 'reward-lens-organism',
          problem: item.problem,
          steps: item.steps,
          label: item.firstErrorStep,
          final_answer_correct: item.finalAnswerCorrect,
        });
        expect(Object.keys(toProcessBench(item)).sort()).toEqual(['final_answer_correct', 'generator', 'id', 'label', 'problem', 'steps']);
        const judged = verifySolution(processBench.problem, processBench.steps);
        expect(judged.firstErrorStep).toBe(processBench.label);
        expect(judged.finalAnswerCorrect).toBe(processBench.final_answer_correct);

        const trl = readTrlRecord(throughJson(toTrl(item)));
        expect(trl.prompt).toBe(item.problem);
        expect(trl.completions).toEqual(item.steps);
        expect(firstErrorOfLabels(trl.labels)).toBe(item.firstErrorStep);
        // Prefix labels: good up to the first error, bad from it on.
        expect(trl.labels).toEqual(item.steps.map((_, step) => item.firstErrorStep === -1 || step < item.firstErrorStep));
        const byStep = readTrlRecord(throughJson(toTrl(item, 'step')));
        expect(byStep.labels).toEqual(judged.steps.map((step) => step.verdict === 'correct'));
      }),
      { numRuns: 200, seed: 31 },
    );
  });

  it('a pair is two records, clean then flawed, marked with the pair and its step', () => {
    const pair = createOrganism({ seed: 2 }).pair(4);
    const [clean, flawed] = pairRecords(pair, (item) => toProcessBench(item));
    expect(clean).toMatchObject({ label: -1, pair_id: pair.id, pair_role: 'clean', pair_step: pair.step, error_kind: pair.errorKind });
    expect(flawed).toMatchObject({ label: pair.step, pair_id: pair.id, pair_role: 'flawed', pair_step: pair.step });
    expect(readProcessBenchRecord(throughJson(flawed)).steps).toEqual(pair.flawed.steps);
  });

  it('records of the wrong shape are typed errors that say where', () => {
    expect(() => readProcessBenchRecord([], 'line 3')).toThrow(InvalidInputError);
    expect(() => readProcessBenchRecord({ problem: 'p', steps: ['a'], label: 1, final_answer_correct: true }, 'line 3')).toThrow(
      /line 3: label must be -1 or a step index below 1/,
    );
    expect(() => readProcessBenchRecord({ problem: 'p', steps: [1], label: -1, final_answer_correct: true })).toThrow(/steps: must be an array of strings/);
    expect(() => readTrlRecord({ prompt: 'p', completions: ['a', 'b'], labels: [true] })).toThrow(/labels must be 2 booleans/);
  });
});
