import { RewardLensError } from '@reward-lens/spec';
import type { PrmTokenizer } from '@reward-lens/tokenizers';

import type { Segmentation } from '../segmenter/types.js';
import { boundaryProbabilities, stepsFromProbabilities } from '../step-detection/detect-steps.js';
import { type DetectionContext, type DetectionLayout, layOutForDetection, readLaidOutFeatures } from './detection-features.js';
import { learnedSegmentation, type StepDetectionSetting } from './learned-steps.js';
import type { NormalizedInput } from './scoring-input.js';
import type { CheckedInputs } from './tokenize-inputs.js';
import { delimiterSegmentation, refuseCertainlyTooLong, type TokenizeOptions } from './tokenize-pair.js';

/** What settling steps needs: the tokenizer and its options, the learned detector's setting, and how the detector reads the model (none on a score source). */
export interface SettleStepsContext {
  tokenizer: PrmTokenizer;
  tokenizeOptions: TokenizeOptions;
  stepDetection: StepDetectionSetting;
  detection: DetectionContext | undefined;
}

interface Chosen {
  index: number;
  input: NormalizedInput & { solution: string };
  delimited: Segmentation;
  layout: DetectionLayout;
}

/**
 * Steps first: every solution given as one text is split before it is tokenized for scoring, at
 * the delimiter, then, where the learned detector applies (the delimiter gave one step under
 * `'auto'`; always under `'learned'`), by the detector, whose forward pass reads the solution laid
 * out as one step. Per input, the segmentation to lay it out with: undefined for given steps and
 * for an input that failed here (its error is then pending in `checked`, recorded in input order).
 */
export async function settleSteps(context: SettleStepsContext, checked: CheckedInputs): Promise<(Segmentation | undefined)[]> {
  const { tokenizer, tokenizeOptions, stepDetection, detection } = context;
  const detector = detection !== undefined && stepDetection.mode !== 'delimiter' ? stepDetection.detector : undefined;
  const segmentations: (Segmentation | undefined)[] = checked.normalized.map(() => undefined);
  const chosen: Chosen[] = [];
  checked.normalized.forEach((input, index) => {
    if (input === null || input.solution === undefined || checked.pending[index] !== undefined) return;
    try {
      refuseCertainlyTooLong(tokenizer, input, tokenizeOptions);
      const delimited = delimiterSegmentation(input.solution, tokenizeOptions);
      segmentations[index] = delimited;
      if (detector === undefined || (stepDetection.mode === 'auto' && delimited.method !== 'single')) return;
      const layout = layOutForDetection(detection!, { problem: input.problem, solution: input.solution }, detector.lookahead);
      chosen.push({ index, input: input as Chosen['input'], delimited, layout });
    } catch (error) {
      if (!RewardLensError.isInstance(error)) throw error;
      checked.pending[index] = error;
    }
  });
  if (detector === undefined || chosen.length === 0) return segmentations;
  const features = await readLaidOutFeatures(
    detection!,
    chosen.map(({ layout }) => layout),
    { layers: [detector.layer], lookahead: detector.lookahead },
  );
  chosen.forEach(({ index, input, delimited }, position) => {
    const tokens = features[position]!;
    const detected = stepsFromProbabilities(detector, tokens, boundaryProbabilities(detector, tokens));
    const shortfall = delimited.method === 'single' ? delimited.delimiterShortfall : undefined;
    const lead = stepDetection.mode === 'learned' ? "step detection 'learned' (the delimiter is not used)" : (shortfall ?? 'the delimiter gave one step');
    segmentations[index] = learnedSegmentation(input.solution, detected, detector, lead);
  });
  return segmentations;
}
