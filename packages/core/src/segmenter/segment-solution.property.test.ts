import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { stepText } from '@reward-lens/test-data/mixed-text';
import { segmentGivenSteps } from './segment-given-steps.js';
import { segmentSolution } from './segment-solution.js';
import type { StepDelimiter } from './types.js';

interface DelimiterCase {
  delimiter: StepDelimiter;
  /** Characters steps must not hold. */
  forbidden: string;
  /** One delimiter occurrence; `crlf` asks for the Windows line ending where the delimiter allows it. */
  occurrence: (crlf: boolean) => string;
}

const delimiterCases: DelimiterCase[] = [
  { delimiter: '\n', forbidden: '\n', occurrence: (crlf) => (crlf ? '\r\n' : '\n') },
  { delimiter: '\n\n', forbidden: '\n', occurrence: () => '\n\n' },
  { delimiter: ' ки', forbidden: 'ки', occurrence: () => ' ки' },
  { delimiter: '<extra_0>', forbidden: '<extra_0>', occurrence: () => '<extra_0>' },
  { delimiter: /\r?\n/, forbidden: '\n', occurrence: (crlf) => (crlf ? '\r\n' : '\n') },
];

interface BuiltSolution {
  delimiterCase: DelimiterCase;
  solution: string;
  steps: string[];
  expectedDropped: number;
  leadingRuns: number;
  trailingRuns: number;
}

/** Steps joined by delimiter runs (1-3 occurrences), with optional leading and trailing runs. */
const builtSolution: fc.Arbitrary<BuiltSolution> = fc
  .constantFrom(...delimiterCases)
  .chain((delimiterCase) =>
    fc.record({
      delimiterCase: fc.constant(delimiterCase),
      steps: fc.array(stepText(delimiterCase.forbidden), { minLength: 1, maxLength: 6 }),
      gapRepeats: fc.array(fc.integer({ min: 1, max: 3 }), { minLength: 6, maxLength: 6 }),
      leadingRuns: fc.integer({ min: 0, max: 2 }),
      trailingRuns: fc.integer({ min: 0, max: 2 }),
      crlf: fc.boolean(),
    }),
  )
  .map(({ delimiterCase, steps, gapRepeats, leadingRuns, trailingRuns, crlf }) => {
    const run = (repeats: number) => delimiterCase.occurrence(crlf).repeat(repeats);
    let solution = run(leadingRuns);
    let expectedDropped = leadingRuns + trailingRuns;
    steps.forEach((step, index) => {
      if (index > 0) {
        solution += run(gapRepeats[index]!);
        expectedDropped += gapRepeats[index]! - 1;
      }
      solution += step;
    });
    solution += run(trailingRuns);
    return { delimiterCase, solution, steps, expectedDropped, leadingRuns, trailingRuns };
  });

describe('segmentSolution: properties', () => {
  it('recovers the trimmed steps, in order, with exact non-overlapping spans', () => {
    fc.assert(
      fc.property(builtSolution, (built) => {
        const { solution, steps } = built;
        const segmentation = segmentSolution(solution, { delimiter: built.delimiterCase.delimiter });
        const expectedTexts = steps.length >= 2 ? steps.map((step) => step.trim()) : [solution.trim()];
        expect(segmentation.steps.map((step) => step.text)).toEqual(expectedTexts);
        let previousEnd = 0;
        for (const step of segmentation.steps) {
          const [start, end] = step.charSpan;
          expect(solution.slice(start, end)).toBe(step.text);
          expect(start).toBeGreaterThanOrEqual(previousEnd);
          expect(end).toBeGreaterThan(start);
          previousEnd = end;
        }
        if (steps.length >= 2) {
          expect(segmentation.method).toBe('delimiter');
          expect(segmentation.droppedEmptySteps).toBe(built.expectedDropped);
          expect(segmentation.stepDetection).toBeUndefined();
        } else {
          expect(segmentation.method).toBe('single');
          expect(segmentation.droppedEmptySteps).toBe(0);
          const delimiterOccurs = built.leadingRuns + built.trailingRuns > 0;
          expect(segmentation.stepDetection).toMatch(delimiterOccurs ? /^the delimiter .* occurs/ : /^no delimiter/);
        }
      }),
      { numRuns: 1500 },
    );
  });

  it('agrees with segmentGivenSteps: splitting the joined text narrows each given span to its content', () => {
    const givenSteps = fc.array(stepText('\n'), { minLength: 2, maxLength: 6 });
    fc.assert(
      fc.property(givenSteps, (steps) => {
        const { solution, segmentation: given } = segmentGivenSteps(steps, '\n');
        const split = segmentSolution(solution);
        expect(split.steps).toHaveLength(steps.length);
        split.steps.forEach((step, index) => {
          const givenStep = given.steps[index]!;
          expect(solution.slice(...givenStep.charSpan)).toBe(steps[index]);
          expect(step.charSpan[0]).toBeGreaterThanOrEqual(givenStep.charSpan[0]);
          expect(step.charSpan[1]).toBeLessThanOrEqual(givenStep.charSpan[1]);
          expect(step.text).toBe(givenStep.text.trim());
        });
      }),
      { numRuns: 500 },
    );
  });
});
