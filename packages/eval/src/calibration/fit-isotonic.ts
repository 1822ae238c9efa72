import { InvalidInputError } from '@reward-lens/core';
import type { LabelledStep } from './labelled-step.js';

/**
 * Isotonic regression by pool-adjacent-violators: the non-decreasing step function of the score
 * closest to the labels in squared error (steps with equal scores are pooled first, as
 * scikit-learn does). Returned as the points of a piecewise-linear map (each block's lowest and
 * highest score at the block's mean), applied with interpolation like numpy.interp.
 */
export function fitIsotonic(steps: readonly LabelledStep[]): { x: number[]; y: number[] } {
  const data = steps.filter((step) => Number.isFinite(step.score)).sort((a, b) => a.score - b.score);
  if (data.length === 0) throw new InvalidInputError('isotonic regression needs at least one labelled step with a score');
  // Blocks: [lowest score, highest score, sum of labels, count].
  const blocks: { low: number; high: number; sum: number; count: number }[] = [];
  for (let index = 0; index < data.length; ) {
    let end = index;
    let sum = 0;
    while (end < data.length && data[end]!.score === data[index]!.score) sum += data[end++]!.label;
    blocks.push({ low: data[index]!.score, high: data[index]!.score, sum, count: end - index });
    index = end;
    while (blocks.length > 1) {
      const last = blocks[blocks.length - 1]!;
      const previous = blocks[blocks.length - 2]!;
      if (previous.sum / previous.count <= last.sum / last.count) break;
      blocks.pop();
      previous.high = last.high;
      previous.sum += last.sum;
      previous.count += last.count;
    }
  }
  const x: number[] = [];
  const y: number[] = [];
  for (const block of blocks) {
    const value = block.sum / block.count;
    x.push(block.low);
    y.push(value);
    if (block.high !== block.low) {
      x.push(block.high);
      y.push(value);
    }
  }
  return { x, y };
}
