import type { CharSpan } from '@reward-lens/tokenizers';

/**
 * What separates steps: a string such as `"\n"`, `"\n\n"` or a step tag, a regular expression, or a
 * matcher such as `linearTimeDelimiter(pattern)`. A `RegExp` runs on JavaScript's backtracking engine:
 * for a pattern a user typed (a CLI flag, an HTTP request), use `linearTimeDelimiter`, whose matching
 * time is linear in the text whatever the pattern.
 */
export type StepDelimiter = string | RegExp | DelimiterMatcher;

/** A delimiter that finds its own matches (a regular expression on another engine, say). */
export interface DelimiterMatcher {
  /** How the delimiter is shown in notes and errors, e.g. `/\n+/ (linear-time)`. */
  readonly description: string;
  /** Every non-overlapping match, left to right, as `[start, end)` spans of UTF-16 code units. */
  matchSpans(text: string): CharSpan[];
}

/**
 * A text-only step finder (sentences, a rule), used when the delimiter does not split a solution
 * into at least two steps. Returns the steps' character spans, or `null` when it finds none. The
 * learned detector, which reads the model's hidden states, is `ProcessRMOptions.stepDetector`.
 */
export interface StepBoundaryDetector {
  readonly name: string;
  detect(solution: string): CharSpan[] | null;
}

export interface SegmentedStep {
  /** The step's text, `solution.slice(charSpan[0], charSpan[1])`. */
  text: string;
  /** The step's content in the solution, surrounding whitespace excluded. */
  charSpan: CharSpan;
}

export interface Segmentation {
  steps: SegmentedStep[];
  /**
   * How the steps were found: `delimiter`, `given` (the caller passed steps), `detector:<name>` (a
   * text-only detector), `learned` (the learned step-boundary detector), or `single` (one-step fallback).
   */
  method: 'delimiter' | 'given' | `detector:${string}` | 'learned' | 'single';
  /** Set when the solution was not split by the delimiter; says why and what was done. */
  stepDetection?: string;
  /** With method `learned`: the detector and its figures. */
  learned?: LearnedStepsMeta;
  /** With method `single`: why the delimiter gave fewer than two steps (`no delimiter "\n" found`). */
  delimiterShortfall?: string;
  /** Empty (whitespace-only) pieces between delimiters that were dropped. */
  droppedEmptySteps: number;
}

/** How learned steps were found: the detector, its held-out figures, its probability at each boundary it placed. */
export interface LearnedStepsMeta {
  name: string;
  layer: number;
  threshold: number;
  heldOut: { precision: number; recall: number; f1: number };
  /** Per boundary (between step k and k+1), the detector's probability that a step ends there. */
  boundaryProbabilities: number[];
}

/** A step mapped to token coordinates of the encoded sequence. */
export interface StepTokens {
  /** `[first, end)`: the tokens that overlap the step's characters. */
  tokenSpan: readonly [first: number, end: number];
  /** The position read for this step's score. */
  readTokenIndex: number;
  /** True when the read token also covers characters after the step's end (a tokenizer merged across the boundary). */
  readTokenCrossesBoundary: boolean;
}
