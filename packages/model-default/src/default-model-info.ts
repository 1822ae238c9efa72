import type { DomainCheck, StepCalibration } from '@reward-lens/core';
import calibration from '../model/calibration.json' with { type: 'json' };
import figures from '../model/figures.json' with { type: 'json' };
import type { DefaultModelFigures } from './default-model-figures.js';
import { organismGrammarCheck } from './organism-grammar-check.js';

/** The default PRM's name, as notes and model cards give it. */
export const defaultModelName = 'reward-lens-organism-prm';

/**
 * How it is read: TRL's token-classification layout, each step's P(correct) bounded by the
 * model's own probability of every token of the solution so far (its tied LM head, trained on
 * correct solutions, gives a wrong digit a low probability). Trained as `trl-token-classification`.
 */
export const defaultModelRecipe = 'trl-likelihood';

/** The shipped calibration (Platt scaling on a held-out organism split); results read through it carry trust `CALIBRATED`. */
export const defaultModelCalibration = calibration as StepCalibration;

/** What its retraining measured: held-out organism F1, matched pairs, ProcessBench GSM8K, the threshold and how it was chosen. */
export const defaultModelFigures = figures as DefaultModelFigures;

/** The note every result of the default PRM carries: which model it is, what it was trained on, what it is and is not good for. */
export const defaultModelNote =
  `model: ${defaultModelName}, the default PRM, a ${(defaultModelFigures.trainingTokens / 1e6).toFixed(1)}M-token training run on organism word problems ` +
  `(held-out organism ProcessBench F1 ${defaultModelFigures.organismTest.f1.toFixed(2)}); it judges solutions in the organism's language, ` +
  `and is close to chance on other text (ProcessBench GSM8K F1 ${defaultModelFigures.processBenchGsm8k.f1.toFixed(2)})`;

/**
 * What both entries' `loadDefaultPrm` add to the caller's options: the recipe it was trained for,
 * its note before the caller's, the organism grammar check before the caller's domain checks, and
 * the shipped calibration (with its vocabulary check) unless `calibrated` is false.
 */
export function defaultPrmLoadOptions<T extends { calibrated?: boolean; notes?: readonly string[]; domainChecks?: readonly DomainCheck[] }>(
  options: T,
): Omit<T, 'calibrated' | 'notes' | 'domainChecks'> & { recipe: string; notes: string[]; calibration: StepCalibration | null; domainChecks: DomainCheck[] } {
  const { calibrated = true, notes = [], domainChecks = [], ...rest } = options;
  return {
    ...rest,
    recipe: defaultModelRecipe,
    notes: [defaultModelNote, ...notes],
    // The calibration's vocabulary check comes with it; the grammar check applies either way.
    domainChecks: [organismGrammarCheck, ...domainChecks],
    // null, not absent: the folder's own calibration.json is the same calibration, and `calibrated: false` turns it off.
    calibration: calibrated ? defaultModelCalibration : null,
  };
}
