import { GrowableFloats } from './growable-floats.js';

/**
 * Area under the ROC curve of `positive` scores against `negative` ones: the Mann–Whitney U
 * statistic over n₊·n₋, counting a tie as one half (average ranks). NaN when either side is empty.
 */
export function auroc(positive: ArrayLike<number>, negative: ArrayLike<number>): number {
  const all: { score: number; positive: boolean }[] = [];
  for (let index = 0; index < positive.length; index++) if (!Number.isNaN(positive[index]!)) all.push({ score: positive[index]!, positive: true });
  for (let index = 0; index < negative.length; index++) if (!Number.isNaN(negative[index]!)) all.push({ score: negative[index]!, positive: false });
  const positives = all.filter((entry) => entry.positive).length;
  const negatives = all.length - positives;
  if (positives === 0 || negatives === 0) return Number.NaN;
  all.sort((a, b) => a.score - b.score);
  let rankSum = 0;
  for (let start = 0; start < all.length; ) {
    let end = start;
    while (end + 1 < all.length && all[end + 1]!.score === all[start]!.score) end++;
    const averageRank = (start + end) / 2 + 1;
    for (let index = start; index <= end; index++) if (all[index]!.positive) rankSum += averageRank;
    start = end + 1;
  }
  return (rankSum - (positives * (positives + 1)) / 2) / (positives * negatives);
}

export interface AurocResult {
  auroc: number;
  positives: number;
  negatives: number;
  /** Set when the tally passed its exact limit and went on in bins (then ties within a bin count as one half). */
  binned?: { bins: number; from: number; to: number };
}

/**
 * AUROC accumulated one score at a time. Exact (4 bytes a score) up to `exactLimit` scores; past it,
 * the scores so far are folded into `bins` equal-width bins over their range (later scores outside
 * it go to the end bins), so memory stays bounded however long the input. The result says so.
 */
export class AurocTally {
  private readonly positive = new GrowableFloats();
  private readonly negative = new GrowableFloats();
  private histogram: { positive: Float64Array; negative: Float64Array; from: number; to: number } | undefined;
  private readonly exactLimit: number;
  private readonly bins: number;

  constructor(options: { exactLimit?: number; bins?: number } = {}) {
    this.exactLimit = options.exactLimit ?? 2_000_000;
    this.bins = options.bins ?? 4096;
  }

  add(score: number, isPositive: boolean): void {
    if (Number.isNaN(score)) return;
    if (this.histogram) {
      this.addToHistogram(score, isPositive);
      return;
    }
    (isPositive ? this.positive : this.negative).push(score);
    if (this.positive.length + this.negative.length > this.exactLimit) this.fold();
  }

  result(): AurocResult {
    if (!this.histogram) {
      return { auroc: auroc(this.positive.values(), this.negative.values()), positives: this.positive.length, negatives: this.negative.length };
    }
    const { positive, negative, from, to } = this.histogram;
    let positives = 0;
    let negatives = 0;
    for (let bin = 0; bin < this.bins; bin++) {
      positives += positive[bin]!;
      negatives += negative[bin]!;
    }
    // P(score₊ > score₋) + ½ P(same bin), summed bin by bin.
    let below = 0;
    let wins = 0;
    for (let bin = 0; bin < this.bins; bin++) {
      wins += positive[bin]! * (below + negative[bin]! / 2);
      below += negative[bin]!;
    }
    const value = positives === 0 || negatives === 0 ? Number.NaN : wins / (positives * negatives);
    return { auroc: value, positives, negatives, binned: { bins: this.bins, from, to } };
  }

  private fold(): void {
    let from = Number.POSITIVE_INFINITY;
    let to = Number.NEGATIVE_INFINITY;
    for (const values of [this.positive.values(), this.negative.values()]) {
      for (const value of values) {
        if (value < from) from = value;
        if (value > to) to = value;
      }
    }
    this.histogram = { positive: new Float64Array(this.bins), negative: new Float64Array(this.bins), from, to: to > from ? to : from + 1 };
    for (const value of this.positive.values()) this.addToHistogram(value, true);
    for (const value of this.negative.values()) this.addToHistogram(value, false);
    this.positive.clear();
    this.negative.clear();
  }

  private addToHistogram(score: number, isPositive: boolean): void {
    const { from, to } = this.histogram!;
    const bin = Math.min(this.bins - 1, Math.max(0, Math.floor(((score - from) / (to - from)) * this.bins)));
    (isPositive ? this.histogram!.positive : this.histogram!.negative)[bin]! += 1;
  }
}
