import type { Gauge } from '@reward-lens/core';

/** How a score becomes a bar's length: probabilities on [0, 1]; raw scores on their own range, 0 included. */
export interface BarScale {
  low: number;
  high: number;
  /** The bar's length as a fraction of the full width, in [0, 1]. */
  fraction(score: number): number;
  /** Said beside the bars. */
  description: string;
}

export function barScale(gauge: Gauge, allScores: readonly number[]): BarScale {
  const scores = allScores.filter((score) => Number.isFinite(score));
  if (gauge === 'PROBABILITY') {
    return { low: 0, high: 1, fraction: (score) => clamp(score), description: 'Bars: probability that the step is correct, from 0 to 1.' };
  }
  const low = Math.min(0, ...scores);
  const high = Math.max(0, ...scores);
  const span = high - low || 1;
  return {
    low,
    high,
    fraction: (score) => clamp((score - low) / span),
    description: `Bars: raw scores (not probabilities) on this solution's range, ${formatScore(low)} to ${formatScore(high)}; longer is higher.`,
  };
}

/**
 * The curve's vertical scale: probabilities on [0, 1]; raw scores on their own range (padded), so
 * that a small dip is visible. Bars keep 0 in their range; the curve need not.
 */
export function curveScale(gauge: Gauge, allScores: readonly number[]): BarScale {
  if (gauge === 'PROBABILITY') return barScale(gauge, allScores);
  const scores = allScores.filter((score) => Number.isFinite(score));
  const lowest = Math.min(...scores);
  const highest = Math.max(...scores);
  const pad = (highest - lowest) * 0.1 || Math.abs(highest) * 0.1 || 1;
  const low = lowest - pad;
  const high = highest + pad;
  return {
    low,
    high,
    fraction: (score) => clamp((score - low) / (high - low)),
    description: `Curve: raw scores from ${formatScore(low)} to ${formatScore(high)}.`,
  };
}

function clamp(value: number): number {
  return Number.isFinite(value) ? Math.min(1, Math.max(0, value)) : 0;
}

/** Four significant digits for display; the exact value stays in `data-score`. */
export function formatScore(value: number): string {
  if (Number.isNaN(value)) return 'no score';
  if (!Number.isFinite(value)) return String(value);
  if (value === 0) return '0';
  return Math.abs(value) >= 1e-3 && Math.abs(value) < 1e4 ? value.toFixed(4) : value.toExponential(3);
}
