/** One bin of a reliability diagram. */
export interface ReliabilityBin {
  from: number;
  to: number;
  count: number;
  /** Mean predicted probability in the bin (NaN when empty). */
  confidence: number;
  /** Fraction of correct steps in the bin (NaN when empty). */
  accuracy: number;
}

export interface Reliability {
  bins: ReliabilityBin[];
  /** Expected calibration error: Σ (nᵦ / N) · |accuracyᵦ − confidenceᵦ| over non-empty bins. */
  ece: number;
  count: number;
  /** How the bins are drawn, in words, for reports. */
  binning: string;
}

/**
 * Accumulates a reliability diagram over `bins` equal-width bins of [0, 1] (bin i holds
 * [i/B, (i+1)/B), the last also 1), in constant memory. Probabilities outside [0, 1] are clamped.
 */
export class ReliabilityTally {
  private readonly counts: Float64Array;
  private readonly confidenceSums: Float64Array;
  private readonly correctSums: Float64Array;

  constructor(readonly binCount = 10) {
    this.counts = new Float64Array(binCount);
    this.confidenceSums = new Float64Array(binCount);
    this.correctSums = new Float64Array(binCount);
  }

  add(probability: number, label: 0 | 1): void {
    if (Number.isNaN(probability)) return;
    const clamped = Math.min(1, Math.max(0, probability));
    const bin = Math.min(this.binCount - 1, Math.floor(clamped * this.binCount));
    this.counts[bin]! += 1;
    this.confidenceSums[bin]! += clamped;
    this.correctSums[bin]! += label;
  }

  result(): Reliability {
    let total = 0;
    for (const count of this.counts) total += count;
    let ece = 0;
    const bins: ReliabilityBin[] = [];
    for (let bin = 0; bin < this.binCount; bin++) {
      const count = this.counts[bin]!;
      const confidence = count === 0 ? Number.NaN : this.confidenceSums[bin]! / count;
      const accuracy = count === 0 ? Number.NaN : this.correctSums[bin]! / count;
      if (count > 0) ece += (count / total) * Math.abs(accuracy - confidence);
      bins.push({ from: bin / this.binCount, to: (bin + 1) / this.binCount, count, confidence, accuracy });
    }
    return {
      bins,
      ece: total === 0 ? Number.NaN : ece,
      count: total,
      binning: `${this.binCount} equal-width bins of [0, 1], weighted by count`,
    };
  }
}

/** The reliability diagram of a list of probabilities and labels. */
export function reliability(probabilities: ArrayLike<number>, labels: ArrayLike<0 | 1>, binCount = 10): Reliability {
  const tally = new ReliabilityTally(binCount);
  for (let index = 0; index < probabilities.length; index++) tally.add(probabilities[index]!, labels[index]!);
  return tally.result();
}
