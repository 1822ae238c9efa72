import { InvalidInputError } from '@reward-lens/spec';
import type { CharSpan } from '@reward-lens/tokenizers';
import { isDelimiterMatcher, splitOnDelimiter } from './split-on-delimiter.js';
import { trimSpan } from './trim-span.js';
import type { Segmentation, SegmentedStep, StepBoundaryDetector, StepDelimiter } from './types.js';

export interface SegmentSolutionOptions {
  /** What separates steps. Default `"\n"`. */
  delimiter?: StepDelimiter;
  /** Asked for step spans only when the delimiter does not give at least two steps. */
  detector?: StepBoundaryDetector;
  /** What the one-step note advises when no detector is given (a PRM names its learned detector's state here). */
  singleStepAdvice?: string;
}

export const defaultStepDelimiter = '\n';

const noDetectorAdvice = 'No step-boundary detector was given; add a delimiter to get per-step scores.';

function describeDelimiter(delimiter: StepDelimiter): string {
  if (typeof delimiter === 'string') return JSON.stringify(delimiter);
  return isDelimiterMatcher(delimiter) ? delimiter.description : String(delimiter);
}

function toStep(solution: string, charSpan: CharSpan): SegmentedStep {
  return { text: solution.slice(charSpan[0], charSpan[1]), charSpan };
}

/**
 * Validates a detector's answer. Spans are trimmed like delimiter pieces; a malformed answer is an
 * error naming the detector (it is a bug there, not something to paper over), while `null` or
 * fewer than two spans means "found nothing" and leads to the one-step fallback.
 */
function runDetector(solution: string, detector: StepBoundaryDetector): SegmentedStep[] | null {
  const spans = detector.detect(solution);
  if (spans === null) return null;
  const location = `detector "${detector.name}"`;
  if (!Array.isArray(spans)) {
    throw new InvalidInputError('detect() must return an array of [start, end) spans or null', { location });
  }
  const steps: SegmentedStep[] = [];
  let previousEnd = 0;
  spans.forEach((span: unknown, index) => {
    const [start, end] = Array.isArray(span) ? (span as unknown[]) : [];
    const problem =
      !Array.isArray(span) || span.length !== 2 || !Number.isInteger(start) || !Number.isInteger(end)
        ? 'is not a pair of integers'
        : (start as number) < previousEnd
          ? `starts before the previous span ends (${previousEnd}): spans must be sorted and not overlap`
          : (end as number) <= (start as number) || (end as number) > solution.length
            ? `is empty or outside the solution (length ${solution.length})`
            : null;
    if (problem !== null) {
      throw new InvalidInputError(`span ${index} (${JSON.stringify(span)}) ${problem}`, { location });
    }
    const content = trimSpan(solution, start as number, end as number);
    if (content === null) {
      throw new InvalidInputError(`span ${index} (${JSON.stringify(span)}) holds only whitespace`, { location });
    }
    steps.push(toStep(solution, content));
    previousEnd = end as number;
  });
  return steps.length >= 2 ? steps : null;
}

/**
 * Splits a solution into steps at every match of the delimiter.
 *
 * Each step is its piece with surrounding whitespace removed (a CRLF's `"\r"`, indentation), and
 * whitespace-only pieces are dropped and counted, so repeated, leading and trailing delimiters are
 * harmless. With fewer than two steps, the detector (when given) is asked; otherwise the trimmed
 * solution is one step (method `single`) and `stepDetection` says why. The fallback is never silent.
 *
 * @example
 * segmentSolution('First, 2+2=4.\nThen, 4*3=12.').steps.map((step) => step.charSpan); // [[0, 13], [14, 27]]
 * segmentSolution('Step 1: a ки\nStep 2: b ки', { delimiter: ' ки' }).steps.length; // 2
 */
export function segmentSolution(solution: string, options: SegmentSolutionOptions = {}): Segmentation {
  if (typeof solution !== 'string' || solution.trim().length === 0) {
    throw new InvalidInputError('the solution is empty or only whitespace', { location: 'solution' });
  }
  const delimiter = options.delimiter ?? defaultStepDelimiter;
  const { pieces, matchCount } = splitOnDelimiter(solution, delimiter);
  const steps: SegmentedStep[] = [];
  let droppedEmptySteps = 0;
  for (const [start, end] of pieces) {
    const content = trimSpan(solution, start, end);
    if (content === null) droppedEmptySteps += 1;
    else steps.push(toStep(solution, content));
  }
  if (steps.length >= 2) return { steps, method: 'delimiter', droppedEmptySteps };

  const described = describeDelimiter(delimiter);
  if (steps.length === 0) {
    throw new InvalidInputError(`the solution holds nothing but the delimiter ${described} (${matchCount} matches): no step has text`, {
      location: 'solution',
    });
  }
  const occurrences = matchCount === 1 ? 'once' : `${matchCount} times`;
  const reason =
    matchCount === 0 ? `no delimiter ${described} found` : `the delimiter ${described} occurs ${occurrences} but only one piece between them holds text`;
  // Outside the delimiter method nothing was split off, so nothing counts as dropped.
  const single = (stepDetection: string): Segmentation => ({
    steps: [toStep(solution, trimSpan(solution, 0, solution.length)!)],
    method: 'single',
    stepDetection,
    delimiterShortfall: reason,
    droppedEmptySteps: 0,
  });
  const detector = options.detector;
  if (detector === undefined) return single(`${reason}: the solution is one step. ${options.singleStepAdvice ?? noDetectorAdvice}`);

  const detected = runDetector(solution, detector);
  if (detected === null) {
    const found = `detector "${detector.name}" found fewer than two steps`;
    return single(`${reason} and ${found}: the solution is one step. Add a delimiter to get per-step scores.`);
  }
  return {
    steps: detected,
    method: `detector:${detector.name}`,
    stepDetection: `${reason}: steps found by detector "${detector.name}".`,
    droppedEmptySteps: 0,
  };
}
