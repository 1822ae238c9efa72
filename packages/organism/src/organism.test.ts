import { InvalidInputError } from '@reward-lens/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Operation } from './operations.js';
import { type ErrorKind, errorKinds, type OrganismOptions } from './options.js';
import { createOrganism, type OrganismItem } from './organism.js';
import { verifySolution } from './verify-solution.js';

const operationSets: Operation[][] = [['+', '−', '×', '÷'], ['+', '−'], ['+', '×'], ['−', '÷'], ['+', '−', '×'], ['+'], ['−', '×', '÷']];

/** Knob settings the generator must honour (chains of × or ÷ alone are tested apart: they need large numbers). */
const optionsArbitrary: fc.Arbitrary<OrganismOptions> = fc
  .record({
    seed: fc.integer({ min: 0, max: 2 ** 31 - 1 }),
    steps: fc.tuple(fc.integer({ min: 2, max: 10 }), fc.integer({ min: 2, max: 10 })).map(([a, b]) => [Math.min(a, b), Math.max(a, b)] as [number, number]),
    maxNumber: fc.constantFrom(10, 20, 100, 1000),
    operations: fc.constantFrom(...operationSets),
    correctFraction: fc.constantFrom(0, 0.3, 0.5, 1),
    errorKinds: fc.subarray([...errorKinds], { minLength: 1 }).filter((kinds) => kinds.includes('wrong-result') || kinds.includes('wrong-copy')),
    distractorProbability: fc.constantFrom(0, 0.3, 1),
  })
  .map((options) => options);

/** Every number written in a text. */
const numbersIn = (text: string) => [...text.matchAll(/\d+/g)].map((match) => Number(match[0]));

function expectAgrees(item: OrganismItem): void {
  const verification = verifySolution(item.problem, item.steps);
  const context = `${item.problem}\n${item.steps.join('\n')}`;
  expect(
    verification.steps.map((step) => step.verdict),
    context,
  ).toEqual(item.verdicts);
  expect(verification.firstErrorStep, context).toBe(item.firstErrorStep);
  expect(verification.finalAnswer).toBe(item.finalAnswer);
  expect(verification.expectedAnswer).toBe(item.answer);
  expect(verification.finalAnswerCorrect).toBe(item.finalAnswerCorrect);
}

/** Whether each injected kind leaves the final answer right. */
const answerRight: Record<ErrorKind, boolean> = {
  'wrong-result': false,
  'wrong-copy': false,
  'wrong-operation': false,
  'dropped-step': false,
  compensating: true,
  'unneeded-step': true,
};

describe('createOrganism', () => {
  it('the verifier agrees with the ground truth on every item, across seeds and knobs', () => {
    fc.assert(
      fc.property(optionsArbitrary, (options) => {
        const organism = createOrganism(options);
        for (const item of organism.items(12)) {
          expectAgrees(item);
          expect(item.errorKind === null).toBe(item.firstErrorStep === -1);
          if (item.errorKind !== null) expect(item.finalAnswerCorrect).toBe(answerRight[item.errorKind]);
          else expect(item.finalAnswerCorrect).toBe(true);
          expect(item.steps.at(-1)).toMatch(/^The answer is \d+\.$/);
          expect(item.steps.every((step) => !step.includes('\n'))).toBe(true);
          // Every number written, in the problem and the solution, wrong ones included, stays within the knob.
          expect(Math.max(...numbersIn(item.problem), ...item.steps.flatMap(numbersIn))).toBeLessThanOrEqual(organism.options.maxNumber);
          const correctSteps = item.steps.length - (item.errorKind === 'dropped-step' ? -1 : item.errorKind === 'unneeded-step' ? 1 : 0);
          expect(correctSteps).toBeGreaterThanOrEqual(organism.options.steps[0]);
          expect(correctSteps).toBeLessThanOrEqual(organism.options.steps[1]);
        }
      }),
      { numRuns: 60, seed: 20240610 },
    );
  });

  it('chains of × or ÷ alone, with numbers large enough for them', () => {
    for (const operations of [['×'], ['÷']] as Operation[][]) {
      const organism = createOrganism({ seed: 5, operations, maxNumber: 1000, steps: [2, 6], errorKinds: ['wrong-result', 'wrong-copy', 'dropped-step'] });
      for (const item of organism.items(40)) {
        expectAgrees(item);
        const symbols = item.steps.join(' ').match(/[+−×÷]/g) ?? [];
        if (item.errorKind === null) expect(new Set(symbols)).toEqual(new Set(operations));
      }
    }
  });

  it('knobs that cannot be met are a typed error saying which', () => {
    expect(() => createOrganism({ operations: ['÷'], maxNumber: 10, steps: [8, 8] }).item(0)).toThrow(InvalidInputError);
    expect(() => createOrganism({ operations: ['÷'], maxNumber: 10, steps: [8, 8] }).item(0)).toThrow(
      /7-operation chain with operations ÷ and numbers up to 10/,
    );
    expect(() => createOrganism({ steps: [1, 4] })).toThrow(/steps: must be \[min, max\] with 2 <= min <= max <= 10/);
    expect(() => createOrganism({ maxNumber: 5 })).toThrow(/maxNumber: must be an integer of at least 10/);
    expect(() => createOrganism({ correctFraction: 1.5 })).toThrow(/correctFraction/);
    expect(() => createOrganism({ errorKinds: ['typo' as ErrorKind] })).toThrow(/errorKinds/);
    expect(() => createOrganism({ errorKinds: ['compensating'] }).pair(0)).toThrow(/matched pairs need one of/);
  });

  it('is deterministic by seed: item i is the same however items are drawn', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 2 ** 31 - 1 }), fc.integer({ min: 0, max: 1000 }), (seed, index) => {
        const first = createOrganism({ seed }).item(index);
        expect(createOrganism({ seed }).items(3, index)[0]).toEqual(first);
        expect(createOrganism({ seed }).pair(index)).toEqual(createOrganism({ seed }).pair(index));
        expect(createOrganism({ seed: seed + 1 }).item(index)).not.toEqual(first);
      }),
      { numRuns: 40, seed: 7 },
    );
  });

  it('draws the share of correct solutions asked for, and every error kind', () => {
    const items = createOrganism({ seed: 11, correctFraction: 0.3, distractorProbability: 1 }).items(600);
    const correct = items.filter((item) => item.errorKind === null).length / items.length;
    // Binomial: 600 draws at 0.3 have a standard deviation of 0.019; 4 of them is 0.075.
    expect(Math.abs(correct - 0.3)).toBeLessThan(0.075);
    const kinds = new Set(items.map((item) => item.errorKind));
    for (const kind of errorKinds) expect(kinds.has(kind), kind).toBe(true);
  });

  it('matched pairs: the same problem and steps up to the flawed one, which differs and is the first error', () => {
    fc.assert(
      fc.property(optionsArbitrary, (options) => {
        const organism = createOrganism({ ...options, errorKinds: ['wrong-result', 'wrong-copy', 'wrong-operation', 'dropped-step', 'unneeded-step'] });
        for (const pair of organism.pairs(8)) {
          expectAgrees(pair.clean);
          expectAgrees(pair.flawed);
          expect(pair.clean.problem).toBe(pair.problem);
          expect(pair.flawed.problem).toBe(pair.problem);
          expect(pair.clean.firstErrorStep).toBe(-1);
          expect(pair.flawed.firstErrorStep).toBe(pair.step);
          expect(pair.flawed.errorKind).toBe(pair.errorKind);
          expect(pair.flawed.steps.slice(0, pair.step)).toEqual(pair.clean.steps.slice(0, pair.step));
          expect(pair.flawed.steps[pair.step]).not.toBe(pair.clean.steps[pair.step]);
        }
      }),
      { numRuns: 30, seed: 99 },
    );
  });

  it('names what a correct solution writes in place of the first error: the clean step there, which the flawed one departs from, and the steps before it are shared', () => {
    fc.assert(
      fc.property(optionsArbitrary, (options) => {
        const organism = createOrganism(options);
        for (const item of organism.items(12)) {
          if (item.firstErrorStep === -1) {
            expect(item.expectedStep).toBeNull();
            continue;
          }
          const expected = item.expectedStep;
          if (expected === null) {
            // Only an added step after the last operation has no counterpart.
            expect(item.verdicts[item.firstErrorStep]).toBe('unneeded-step');
            continue;
          }
          expect(expected).not.toBe(item.steps[item.firstErrorStep]);
          // The expected step, with the steps before it, is a correct prefix as the verifier reads it.
          const prefix = [...item.steps.slice(0, item.firstErrorStep), expected];
          expect(verifySolution(item.problem, prefix).steps.map((step) => step.verdict)).toEqual(prefix.map(() => 'correct'));
        }
        for (const pair of organism.pairs(4)) expect(pair.flawed.expectedStep).toBe(pair.clean.steps[pair.step] ?? null);
      }),
      { numRuns: 40, seed: 7 },
    );
  });
});
