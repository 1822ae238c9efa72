import { InvalidInputError } from '@reward-lens/spec';
import type { StepCalibration } from '../calibration/step-calibration.js';
import type { DomainCheck } from '../domain/domain-check.js';
import { plainValueRecipe, type ReadingRecipe } from '../recipes/reading-recipe.js';
import type { StepBoundaryDetector, StepDelimiter } from '../segmenter/types.js';
import type { StepDetector } from '../step-detection/step-detector.js';
import type { StepDetectionMode } from './learned-steps.js';

export interface ProcessRMOptions {
  /** How the model is read; defaults to a raw value head at each step's last token. */
  recipe?: ReadingRecipe;
  /** What separates steps in a solution given as one text. Default: the recipe's (`"\n"` for the plain recipe). */
  delimiter?: StepDelimiter;
  /** A text-only step finder, used when the delimiter does not split a solution into at least two steps. */
  detector?: StepBoundaryDetector;
  /**
   * When the learned step-boundary detector splits a solution given as one text: `'auto'`
   * (default) where the delimiter gives fewer than two steps, `'learned'` always (the delimiter
   * is not used; an error when there is no usable detector), `'delimiter'` never.
   */
  stepDetection?: StepDetectionMode;
  /**
   * The learned step-boundary detector (plain data, as `step-detector.json` holds it): a probe over
   * this model's hidden states. `fromPretrained` reads the folder's; `null` uses none.
   */
  stepDetector?: StepDetector | null;
  /** `'none'` (default) rejects sequences longer than the model's positions; `'left'` keeps their end. */
  truncation?: 'none' | 'left';
  /** Pairs per forward pass. Default 8. */
  batchSize?: number;
  /** Which side of a batch row holds padding. Default `'right'`. */
  padding?: 'left' | 'right';
  /** Notes carried into every result (which backend ran, why others were skipped). */
  notes?: readonly string[];
  /**
   * Maps step and outcome scores to calibrated probabilities (trust `CALIBRATED`); see
   * `withCalibration`. `fromPretrained` and `fromFiles` read the folder's `calibration.json`; `null` uses none.
   */
  calibration?: StepCalibration | null;
  /**
   * Checks that a record is text of the model's domain (a grammar, say), beside the calibration's
   * own vocabulary check. A record outside is scored, noted (`meta.outOfDomain`), and not `CALIBRATED`.
   */
  domainChecks?: readonly DomainCheck[];
}

/** How a ProcessRM lays out and batches pairs: the options with their defaults, checked. */
export type ScoringSettings = Required<
  Omit<ProcessRMOptions, 'detector' | 'recipe' | 'notes' | 'calibration' | 'stepDetection' | 'stepDetector' | 'domainChecks'>
> & { detector?: StepBoundaryDetector };

export function scoringSettings(options: ProcessRMOptions): ScoringSettings {
  const settings: ScoringSettings = {
    delimiter: options.delimiter ?? (options.recipe ?? plainValueRecipe).delimiter,
    truncation: options.truncation ?? 'none',
    batchSize: options.batchSize ?? 8,
    padding: options.padding ?? 'right',
    ...(options.detector ? { detector: options.detector } : {}),
  };
  if (!Number.isInteger(settings.batchSize) || settings.batchSize < 1)
    throw new InvalidInputError(`batchSize must be a positive integer, got ${settings.batchSize}`);
  return settings;
}
