import { probeLogits, sigmoid } from '../probes/probe.js';
import type { CharSpan } from '@reward-lens/tokenizers';
import type { SolutionTokenFeatures } from './solution-token-features.js';
import type { StepDetector } from './step-detector.js';
import { stepSpansAtTokenEnds } from './step-spans.js';

/** What a detector found in one solution. */
export interface DetectedSteps {
  /** The steps' characters in the solution. */
  spans: CharSpan[];
  /** Per boundary kept (between step k and k+1), the detector's probability there. */
  boundaryProbabilities: number[];
}

/** Per token of the solution, the probability that a step ends after it. */
export function boundaryProbabilities(detector: StepDetector, tokens: SolutionTokenFeatures): Float64Array {
  const rows = tokens.tokenSpans.length;
  const logits = probeLogits(detector.probe, tokens.features[0]!, rows);
  return logits.map(sigmoid);
}

/** The steps a detector finds from one solution's token probabilities: a step ends after every token at or above its threshold. */
export function stepsFromProbabilities(detector: StepDetector, tokens: SolutionTokenFeatures, probabilities: ArrayLike<number>): DetectedSteps {
  const ends: number[] = [];
  const byEnd = new Map<number, number>();
  tokens.tokenSpans.forEach(([, end], token) => {
    if (probabilities[token]! >= detector.threshold) {
      ends.push(end);
      byEnd.set(end, Math.max(byEnd.get(end) ?? 0, probabilities[token]!));
    }
  });
  const spans = stepSpansAtTokenEnds(tokens.solution, ends);
  // The boundary between two kept steps is the detected end inside the gap after the first of them.
  const boundaryProbabilitiesKept = spans.slice(0, -1).map(([, end], index) => {
    const nextStart = spans[index + 1]![0];
    let best = 0;
    for (const [boundary, probability] of byEnd) if (boundary >= end && boundary <= nextStart) best = Math.max(best, probability);
    return best;
  });
  return { spans, boundaryProbabilities: boundaryProbabilitiesKept };
}
