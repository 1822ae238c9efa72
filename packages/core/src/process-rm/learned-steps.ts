import { type BackendV1, type Capabilities, hasCapability, InvalidInputError, UnsupportedCapabilityError } from '@reward-lens/spec';

import type { ReadingRecipe } from '../recipes/reading-recipe.js';
import type { Segmentation } from '../segmenter/types.js';
import type { DetectedSteps } from '../step-detection/detect-steps.js';
import { describeStepDetector, stepDetectorMismatch, validateStepDetector, type StepDetector } from '../step-detection/step-detector.js';

/**
 * When the learned step-boundary detector splits a solution given as one text: `'auto'` where the
 * delimiter gives fewer than two steps, `'learned'` always (the delimiter is not used), `'delimiter'` never.
 */
export type StepDetectionMode = 'auto' | 'learned' | 'delimiter';

export const stepDetectionModes: readonly StepDetectionMode[] = ['auto', 'learned', 'delimiter'];

/** The learned detector as a PRM will use it. */
export interface StepDetectionSetting {
  mode: StepDetectionMode;
  /** The detector, when there is one and it can run on this model. */
  detector: StepDetector | undefined;
  /** What a one-step note says about the learned detector where it did not run. */
  advice: string;
}

const addDelimiter = 'add a delimiter to get per-step scores.';
const noDetector =
  'This model has no learned step-boundary detector (a step-detector.json beside its weights, or options.stepDetector; `reward-lens train-detector` fits one); ';

/**
 * Checks the mode and the detector against the backend and recipe. `'learned'` with no usable
 * detector is an error here, before any work; under `'auto'` the reason goes into the notes.
 */
export function resolveStepDetection(
  mode: StepDetectionMode | undefined,
  value: StepDetector | null | undefined,
  backend: BackendV1 | { name: string; capabilities: Capabilities },
  recipe: ReadingRecipe,
): StepDetectionSetting {
  const chosen = mode ?? 'auto';
  if (!stepDetectionModes.includes(chosen)) {
    throw new InvalidInputError(`stepDetection must be one of ${stepDetectionModes.join(', ')}, got ${JSON.stringify(mode)}`, {
      location: 'options.stepDetection',
    });
  }
  if (value === undefined || value === null) {
    if (chosen === 'learned') {
      throw new InvalidInputError(
        "stepDetection 'learned' needs a learned step-boundary detector: a step-detector.json beside the weights, or options.stepDetector",
        { location: 'options.stepDetection' },
      );
    }
    return { mode: chosen, detector: undefined, advice: noDetector + addDelimiter };
  }
  const detector = validateStepDetector(value, 'options.stepDetector');
  // A score source (no `info`) has no hidden states: it cannot run a detector, as a backend without ACTIVATIONS cannot.
  const mismatch = 'info' in backend ? stepDetectorMismatch(detector, backend.info, recipe) : null;
  if (mismatch !== null) {
    if (chosen === 'learned') throw new InvalidInputError(mismatch, { location: 'options.stepDetector' });
    return { mode: chosen, detector: undefined, advice: `${mismatch}, so it is not used; ${addDelimiter}` };
  }
  if (!hasCapability(backend.capabilities, 'ACTIVATIONS')) {
    if (chosen === 'learned') throw new UnsupportedCapabilityError({ capability: 'ACTIVATIONS', backend: backend.name, operation: 'learned step detection' });
    return {
      mode: chosen,
      detector: undefined,
      advice: `The learned step detector "${detector.name}" reads hidden states (ACTIVATIONS), which backend "${backend.name}" does not give; ${addDelimiter}`,
    };
  }
  if (chosen === 'delimiter') {
    return {
      mode: chosen,
      detector: undefined,
      advice: `Step detection is 'delimiter', so the learned detector "${detector.name}" was not run; ${addDelimiter}`,
    };
  }
  return {
    mode: chosen,
    detector,
    advice: `The learned step detector "${detector.name}" runs in the scoring methods and prm.segment(), not in the synchronous tokenize(); ${addDelimiter}`,
  };
}

/** The segmentation of a solution from what the detector found (one step, with a note, when it found no boundary). */
export function learnedSegmentation(solution: string, detected: DetectedSteps, detector: StepDetector, lead: string): Segmentation {
  if (detected.spans.length < 2) {
    const span = detected.spans[0] ?? [0, solution.length];
    return {
      steps: [{ text: solution.slice(span[0], span[1]), charSpan: span }],
      method: 'single',
      stepDetection: `${lead}, and the ${describeStepDetector(detector)} found no step boundary: the solution is one step.`,
      droppedEmptySteps: 0,
    };
  }
  return {
    steps: detected.spans.map((span) => ({ text: solution.slice(span[0], span[1]), charSpan: span })),
    method: 'learned',
    stepDetection: `${lead}: ${detected.spans.length} steps found by the ${describeStepDetector(detector)}.`,
    learned: {
      name: detector.name,
      layer: detector.layer,
      threshold: detector.threshold,
      heldOut: { precision: detector.heldOut.precision, recall: detector.heldOut.recall, f1: detector.heldOut.f1 },
      boundaryProbabilities: detected.boundaryProbabilities,
    },
    droppedEmptySteps: 0,
  };
}
