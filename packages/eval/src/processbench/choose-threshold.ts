import { InvalidInputError } from '@reward-lens/core';
import { harmonicMean } from './processbench-tally.js';
import { itemFingerprint } from './item-fingerprint.js';

/** A solution with its label and step scores: what a threshold is chosen on and evaluated on. */
export interface ScoredItem {
  id: string;
  problem: string;
  steps: readonly string[];
  label: number;
  stepScores: ArrayLike<number>;
}

/**
 * A threshold and where it came from. Evaluation takes only this (never a bare number), so a
 * threshold is either chosen on a named calibration split (whose solutions may then not be scored
 * with it) or declared fixed with a reason.
 */
export interface ChosenThreshold {
  value: number;
  source:
    | {
        kind: 'calibration';
        /** The calibration split's name, as reported. */
        name: string;
        items: number;
        /** ProcessBench's metric on the calibration split at this threshold. */
        errorAccuracy: number;
        correctAccuracy: number;
        f1: number;
        /** Content fingerprints of the calibration solutions, to refuse scoring them with this threshold. */
        fingerprints: string[];
      }
    | { kind: 'fixed'; reason: string };
}

/** A threshold set by hand (a model card's 0.5, a published value), with the reason reported beside it. */
export function fixedThreshold(value: number, reason: string): ChosenThreshold {
  if (!Number.isFinite(value)) throw new InvalidInputError(`a threshold must be a finite number, got ${value}`);
  return { value, source: { kind: 'fixed', reason } };
}

function lowerBound(sorted: Float64Array, value: number): number {
  // Count of entries < value.
  let low = 0;
  let high = sorted.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (sorted[middle]! < value) low = middle + 1;
    else high = middle;
  }
  return low;
}

function minimum(scores: ArrayLike<number>, end: number): number {
  let lowest = Number.POSITIVE_INFINITY;
  for (let index = 0; index < end; index++) if (scores[index]! < lowest) lowest = scores[index]!;
  return lowest;
}

/**
 * The threshold that maximises ProcessBench's F1 on a calibration split, found exactly: an item
 * is right for every threshold in one interval (a correct item: t ≤ its lowest score; an
 * erroneous item with label L: t above step L's score and at most the lowest score before it), so
 * F1 is piecewise constant between score values and every piece is tried. The threshold reported
 * is the middle of the best piece (the lowest best piece on ties).
 *
 * @example
 * const threshold = chooseThreshold(calibrationItems, { name: 'gsm8k first half' });
 * const result = evaluateScoredItems(testItems, { threshold });
 */
export function chooseThreshold(items: Iterable<ScoredItem>, options: { name: string }): ChosenThreshold {
  const correctMinimums: number[] = [];
  const errorStarts: number[] = [];
  const errorEnds: number[] = [];
  let erroneousItems = 0;
  const fingerprints = new Set<string>();
  let count = 0;
  for (const item of items) {
    count++;
    fingerprints.add(itemFingerprint(item.problem, item.steps));
    if (item.label === -1) {
      correctMinimums.push(minimum(item.stepScores, item.stepScores.length));
      continue;
    }
    erroneousItems++;
    const start = item.stepScores[item.label]!;
    const end = minimum(item.stepScores, item.label);
    // Right for start < t <= end; never right when that is empty (or the labelled step is unscored).
    if (start < end) {
      errorStarts.push(start);
      errorEnds.push(end);
    }
  }
  if (count === 0) throw new InvalidInputError(`calibration split "${options.name}" holds no items`);
  const correctItems = correctMinimums.length;
  const sortedMinimums = Float64Array.from(correctMinimums).sort();
  const sortedStarts = Float64Array.from(errorStarts).sort();
  const sortedEnds = Float64Array.from(errorEnds).sort();
  const candidates = [...new Set([...correctMinimums, ...errorStarts, ...errorEnds].filter(Number.isFinite))].sort((a, b) => a - b);
  const accuraciesAt = (t: number) => {
    const clean = correctMinimums.length - lowerBound(sortedMinimums, t);
    const exact = lowerBound(sortedStarts, t) - lowerBound(sortedEnds, t);
    const errorAccuracy = erroneousItems === 0 ? Number.NaN : exact / erroneousItems;
    const correctAccuracy = correctItems === 0 ? Number.NaN : clean / correctItems;
    return { errorAccuracy, correctAccuracy, f1: harmonicMean(errorAccuracy, correctAccuracy) };
  };
  // Piece i is (candidates[i-1], candidates[i]]; the last piece is everything above the largest value.
  let best = { value: candidates[0] ?? 0.5, ...accuraciesAt(candidates[0] ?? 0.5) };
  for (let index = 0; index <= candidates.length; index++) {
    const upper = candidates[index];
    const lower = candidates[index - 1];
    let value: number;
    if (upper === undefined) {
      if (lower === undefined) break;
      value = lower + Math.max(1e-6, Math.abs(lower) * 1e-6);
    } else value = lower === undefined ? upper : (lower + upper) / 2;
    const at = accuraciesAt(upper ?? value);
    if (at.f1 > best.f1 || Number.isNaN(best.f1)) best = { value, ...at };
  }
  return {
    value: best.value,
    source: {
      kind: 'calibration',
      name: options.name,
      items: count,
      errorAccuracy: best.errorAccuracy,
      correctAccuracy: best.correctAccuracy,
      f1: best.f1,
      fingerprints: [...fingerprints].sort(),
    },
  };
}
