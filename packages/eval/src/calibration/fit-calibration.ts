import { applyStepCalibration, InvalidInputError, type CalibrationMap, type StepCalibration } from '@reward-lens/core';
import { fitIsotonic } from './fit-isotonic.js';
import { fitPlatt } from './fit-platt.js';
import type { LabelledStep } from './labelled-step.js';
import { reliability } from './reliability.js';

/** How raw scores read as probabilities before calibration: as they are (a softmax or sigmoid recipe) or through a sigmoid (a raw value head). */
export type ScoreReading = 'probability' | 'sigmoid';

export function readAsProbability(score: number, reading: ScoreReading): number {
  return reading === 'probability' ? score : 1 / (1 + Math.exp(-score));
}

export interface FitCalibrationOptions {
  method: 'platt' | 'isotonic';
  /** The labelled set: its name, its domain (named in every calibrated result's notes) and how many solutions it holds. */
  set: { name: string; domain: string; items: number };
  /** How the raw scores read as probabilities for the "before" error. Default `probability`. */
  reading?: ScoreReading;
  /** Reliability bins. Default 10. */
  bins?: number;
}

/**
 * Fits a step calibration on labelled steps and returns it as plain data (attach it with
 * `prm.withCalibration`), with the expected calibration error before and after, measured on the
 * same steps (in-sample: measure on a held-out split with `reliability` for an honest figure).
 */
export function fitStepCalibration(steps: readonly LabelledStep[], options: FitCalibrationOptions): StepCalibration {
  const usable = steps.filter((step) => Number.isFinite(step.score));
  if (usable.length === 0) throw new InvalidInputError('a calibration needs labelled steps with scores');
  const map: CalibrationMap = options.method === 'platt' ? { method: 'platt', ...fitPlatt(usable) } : { method: 'isotonic', ...fitIsotonic(usable) };
  const bins = options.bins ?? 10;
  const labels = usable.map((step) => step.label);
  const before = reliability(
    usable.map((step) => readAsProbability(step.score, options.reading ?? 'probability')),
    labels,
    bins,
  );
  const after = reliability(
    usable.map((step) => applyStepCalibration(map, step.score)),
    labels,
    bins,
  );
  return {
    format: 'reward-lens.step-calibration',
    version: 1,
    map,
    set: { name: options.set.name, domain: options.set.domain, labelledSteps: usable.length, items: options.set.items },
    diagnostics: { eceBefore: before.ece, eceAfter: after.ece, bins, binning: `${before.binning}; in-sample` },
  };
}
