import { describe, expect, it } from 'vitest';
import { InvalidInputError } from '@reward-lens/spec';
import { segmentGivenSteps } from './segment-given-steps.js';

describe('segmentGivenSteps', () => {
  it('joins the steps and records exactly where each sits, untrimmed', () => {
    const { solution, segmentation } = segmentGivenSteps(['2+2=4.', ' 4*3=12. ', '12-5=7.'], '\n');
    expect(solution).toBe('2+2=4.\n 4*3=12. \n12-5=7.');
    expect(segmentation).toEqual({
      steps: [
        { text: '2+2=4.', charSpan: [0, 6] },
        { text: ' 4*3=12. ', charSpan: [7, 16] },
        { text: '12-5=7.', charSpan: [17, 24] },
      ],
      method: 'given',
      droppedEmptySteps: 0,
    });
  });

  it('accepts any joiner, the empty one and a step tag included', () => {
    expect(segmentGivenSteps(['ab', 'cd'], '').segmentation.steps.map((step) => step.charSpan)).toEqual([
      [0, 2],
      [2, 4],
    ]);
    const tagged = segmentGivenSteps(['Step 1', 'Step 2 😀'], ' ки\n');
    expect(tagged.solution).toBe('Step 1 ки\nStep 2 😀');
    expect(tagged.segmentation.steps[1]!.charSpan).toEqual([10, 19]);
  });

  it('keeps a single given step as method "given"', () => {
    const { segmentation } = segmentGivenSteps(['only'], '\n');
    expect(segmentation.method).toBe('given');
    expect(segmentation.steps).toHaveLength(1);
  });

  it('rejects zero steps and empty or whitespace-only steps, naming the index', () => {
    expect(() => segmentGivenSteps([], '\n')).toThrow(InvalidInputError);
    expect(() => segmentGivenSteps(['a', ' \n '], '\n')).toThrow(/steps\[1\]/);
    expect(() => segmentGivenSteps(['', 'b'], '\n')).toThrow(/steps\[0\]/);
  });
});
