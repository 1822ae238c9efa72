import { InvalidInputError } from '@reward-lens/spec';
import type { Segmentation, SegmentedStep } from './types.js';

/**
 * For callers whose steps are already split: joins them with `joiner` and records where each one
 * sits. Spans are exact, not trimmed: the caller's step text is kept as given, including any
 * surrounding whitespace, so `solution.slice(...charSpan) === steps[index]`.
 *
 * @example
 * segmentGivenSteps(['2+2=4.', '4*3=12.'], '\n'); // solution "2+2=4.\n4*3=12.", spans [0, 6] and [7, 14]
 */
export function segmentGivenSteps(steps: readonly string[], joiner: string): { solution: string; segmentation: Segmentation } {
  if (!Array.isArray(steps) || steps.length === 0) {
    throw new InvalidInputError('at least one step is needed', { location: 'steps' });
  }
  if (typeof joiner !== 'string') {
    throw new InvalidInputError('the joiner must be a string', { location: 'joiner' });
  }
  const segmentedSteps: SegmentedStep[] = [];
  let cursor = 0;
  steps.forEach((step, index) => {
    if (typeof step !== 'string' || step.trim().length === 0) {
      throw new InvalidInputError('a step is empty or only whitespace', { location: `steps[${index}]` });
    }
    if (index > 0) cursor += joiner.length;
    segmentedSteps.push({ text: step, charSpan: [cursor, cursor + step.length] });
    cursor += step.length;
  });
  return {
    solution: steps.join(joiner),
    segmentation: { steps: segmentedSteps, method: 'given', droppedEmptySteps: 0 },
  };
}
