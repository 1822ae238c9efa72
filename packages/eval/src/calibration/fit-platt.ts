import { InvalidInputError } from '@reward-lens/core';
import type { LabelledStep } from './labelled-step.js';

/**
 * Platt scaling: p = 1 / (1 + exp(−(slope · score + intercept))), fitted by maximum likelihood
 * with Platt's (1999) smoothed targets (N₊ + 1)/(N₊ + 2) and 1/(N₋ + 2), as scikit-learn's
 * sigmoid calibration does, by Newton's method with a backtracking line search (Lin, Lin and
 * Weng 2007). NaN scores are skipped.
 */
export function fitPlatt(steps: readonly LabelledStep[]): { slope: number; intercept: number } {
  const data = steps.filter((step) => Number.isFinite(step.score));
  const positives = data.filter((step) => step.label === 1).length;
  const negatives = data.length - positives;
  if (positives === 0 || negatives === 0) throw new InvalidInputError('Platt scaling needs labelled steps of both kinds (correct and erroneous)');
  const high = (positives + 1) / (positives + 2);
  const low = 1 / (negatives + 2);
  const targets = data.map((step) => (step.label === 1 ? high : low));
  const loss = (slope: number, intercept: number) => {
    let total = 0;
    data.forEach((step, index) => {
      const z = slope * step.score + intercept;
      // −[t log σ(z) + (1 − t) log(1 − σ(z))] = log(1 + e^z) − t z, computed stably.
      total += (z > 0 ? z + Math.log1p(Math.exp(-z)) : Math.log1p(Math.exp(z))) - targets[index]! * z;
    });
    return total;
  };
  let slope = 0;
  let intercept = Math.log((positives + 1) / (negatives + 1));
  let current = loss(slope, intercept);
  for (let iteration = 0; iteration < 100; iteration++) {
    let gradientSlope = 0;
    let gradientIntercept = 0;
    let hessianSS = 1e-12;
    let hessianSI = 0;
    let hessianII = 1e-12;
    data.forEach((step, index) => {
      const p = 1 / (1 + Math.exp(-(slope * step.score + intercept)));
      const residual = p - targets[index]!;
      const weight = p * (1 - p);
      gradientSlope += residual * step.score;
      gradientIntercept += residual;
      hessianSS += weight * step.score * step.score;
      hessianSI += weight * step.score;
      hessianII += weight;
    });
    if (Math.abs(gradientSlope) < 1e-10 && Math.abs(gradientIntercept) < 1e-10) break;
    const determinant = hessianSS * hessianII - hessianSI * hessianSI;
    const stepSlope = -(hessianII * gradientSlope - hessianSI * gradientIntercept) / determinant;
    const stepIntercept = -(hessianSS * gradientIntercept - hessianSI * gradientSlope) / determinant;
    let size = 1;
    let next = loss(slope + stepSlope, intercept + stepIntercept);
    while (!(next <= current + 1e-4 * size * (gradientSlope * stepSlope + gradientIntercept * stepIntercept)) && size > 1e-10) {
      size /= 2;
      next = loss(slope + size * stepSlope, intercept + size * stepIntercept);
    }
    if (size <= 1e-10) break;
    slope += size * stepSlope;
    intercept += size * stepIntercept;
    const improvement = current - next;
    current = next;
    if (improvement < 1e-14 * Math.max(1, Math.abs(current))) break;
  }
  return { slope, intercept };
}
