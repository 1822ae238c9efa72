import type { CharSpan } from '@reward-lens/core';

/** Boundaries found against boundaries labelled: a found one counts when a step ends at exactly that character. */
export interface BoundaryMetrics {
  precision: number;
  recall: number;
  f1: number;
  truePositives: number;
  falsePositives: number;
  falseNegatives: number;
  /** Labelled boundaries. */
  boundaries: number;
  solutions: number;
}

/** Where steps end, all but the last: the boundaries a segmentation puts in a solution. */
export function boundaryEnds(spans: readonly CharSpan[]): number[] {
  return spans.slice(0, -1).map(([, end]) => end);
}

/**
 * Precision, recall and F1 of found boundaries against labelled ones, pooled over solutions. A
 * boundary is the character where a step's content ends, so what is compared is exactly what a
 * user gets: the detector's steps, snapped to token ends and trimmed, against the delimited steps.
 * With nothing found precision is 1 (nothing was wrong); with nothing labelled recall is 1.
 */
export function boundaryMetrics(found: readonly (readonly number[])[], labelled: readonly (readonly number[])[]): BoundaryMetrics {
  let truePositives = 0;
  let foundCount = 0;
  let boundaries = 0;
  labelled.forEach((ends, index) => {
    const truth = new Set(ends);
    const mine = new Set(found[index] ?? []);
    boundaries += truth.size;
    foundCount += mine.size;
    for (const end of mine) if (truth.has(end)) truePositives += 1;
  });
  const precision = foundCount === 0 ? 1 : truePositives / foundCount;
  const recall = boundaries === 0 ? 1 : truePositives / boundaries;
  const f1 = precision + recall === 0 ? 0 : (2 * precision * recall) / (precision + recall);
  return {
    precision,
    recall,
    f1,
    truePositives,
    falsePositives: foundCount - truePositives,
    falseNegatives: boundaries - truePositives,
    boundaries,
    solutions: labelled.length,
  };
}
