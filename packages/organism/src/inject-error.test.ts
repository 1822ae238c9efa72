import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildProblem } from './build-problem.js';
import { injectError, injectionPositions, writeCleanSolution } from './inject-error.js';
import { type ErrorKind, errorKinds, resolveOrganismOptions } from './options.js';
import { chainValues } from './problem.js';
import { createRandom } from './random.js';
import type { SolutionContext } from './solution-writer.js';
import { type StepVerdict, verifySolution } from './verify-solution.js';

/** The verdict the verifier gives the step where each kind is injected. */
const verdictAt: Record<ErrorKind, StepVerdict[]> = {
  'wrong-result': ['wrong-result'],
  'wrong-copy': ['wrong-copy'],
  'wrong-operation': ['wrong-operation'],
  'dropped-step': ['skipped-step'],
  compensating: ['wrong-result'],
  'unneeded-step': ['unneeded-step'],
};

function problemFor(seed: number, operationCount: number, maxNumber: number) {
  const options = resolveOrganismOptions({ maxNumber, distractorProbability: 1 });
  const random = createRandom(seed);
  const problem = buildProblem(random, operationCount, options);
  const context: SolutionContext = { structure: problem.structure, truth: chainValues(problem.structure), leads: problem.leads, ceiling: maxNumber };
  return { problem, context, random, options };
}

describe('injectError', () => {
  it('an error injected at step k is the verifier’s first error, at k, of its kind, for every kind and every position', () => {
    let injected = 0;
    let tried = 0;
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 2 ** 31 - 1 }), fc.integer({ min: 1, max: 9 }), fc.constantFrom(10, 100, 1000), (seed, count, maxNumber) => {
        const { problem, context, random, options } = problemFor(seed, count, maxNumber);
        for (const kind of errorKinds) {
          for (const position of injectionPositions(context, kind)) {
            tried++;
            const steps = injectError(context, kind, position, random, options.operations);
            if (steps === null) continue;
            injected++;
            const verification = verifySolution(
              problem.text,
              steps.map((step) => step.text),
            );
            const where = `${kind} at ${position}\n${problem.text}\n${steps.map((step) => step.text).join('\n')}`;
            expect(verification.firstErrorStep, where).toBe(position);
            expect(verdictAt[kind], where).toContain(verification.steps[position]!.verdict);
            expect(verification.steps.map((step) => step.verdict)).toEqual(steps.map((step) => step.verdict));
          }
        }
      }),
      { numRuns: 80, seed: 4242 },
    );
    // Most placements are possible: the test is not passing on a handful of injections.
    expect(injected / tried).toBeGreaterThan(0.6);
  });

  it('edits made to a correct solution’s text are found at the edited step', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 2 ** 31 - 1 }),
        fc.integer({ min: 2, max: 9 }),
        fc.nat(),
        fc.integer({ min: 1, max: 5 }),
        (seed, count, at, shift) => {
          const { problem, context } = problemFor(seed, count, 100);
          const steps = writeCleanSolution(context).map((step) => step.text);
          const k = at % (steps.length - 1);
          // A different result after "=": the step's arithmetic is wrong.
          const edited = steps.map((step, index) => (index === k ? step.replace(/= (\d+)/, (_, value: string) => `= ${Number(value) + shift}`) : step));
          const verification = verifySolution(problem.text, edited);
          expect(verification.firstErrorStep).toBe(k);
          expect(verification.steps[k]!.verdict).toBe('wrong-result');
          // A step deleted: the first error is where it was (a later operation, or the answer, comes too early).
          const operations = problem.structure.operations;
          if (k + 1 >= operations.length || operations[k + 1]!.operand !== operations[k]!.operand) {
            const dropped = verifySolution(
              problem.text,
              steps.filter((_, index) => index !== k),
            );
            expect(dropped.firstErrorStep).toBe(k);
          }
          // Steps in another order: the step moved forward is the first error.
          if (k + 1 < operations.length) {
            const swapped = steps.map((step, index) => (index === k ? steps[k + 1]! : index === k + 1 ? steps[k]! : step));
            expect(verifySolution(problem.text, swapped).firstErrorStep).toBe(k);
          }
        },
      ),
      { numRuns: 150, seed: 77 },
    );
  });
});
