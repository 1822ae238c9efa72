import type { CharSpan, IntegrationBaseline, IntegrationCheck, ProcessRM, ScoringInput } from '@reward-lens/core';

/** One input token's share in a step's score. */
export interface TokenAttribution {
  /** Position in the pair's tokens (BOS counted). */
  index: number;
  /** Its characters in the laid-out text (empty for BOS and other added tokens without text). */
  text: string;
  charSpan: CharSpan;
  /** d(score)/d(embedding) · embedding. */
  gradientTimesInput: number;
  /** Its integrated gradient from the baseline (they sum to about score − score(baseline)). */
  integratedGradients: number;
}

/** One step's score explained by the tokens up to its read position. */
export interface StepAttribution {
  step: number;
  text: string;
  score: number;
  readTokenIndex: number;
  /** Every token up to and including the read position (later tokens get exactly 0). */
  tokens: TokenAttribution[];
  /** The tokens with text of largest |integrated gradient|, then of largest |gradient × input|, `top` of each. */
  top: { integratedGradients: TokenAttribution[]; gradientTimesInput: TokenAttribution[] };
  integration: IntegrationCheck;
}

export interface PairAttribution {
  /** The pair as the model read it. */
  text: string;
  steps: { text: string; charSpan: CharSpan; readTokenIndex: number }[];
  attributions: StepAttribution[];
  notes: string[];
}

export interface AttributionOptions {
  /** Points on the integration path (the midpoint rule). Default 32. */
  integrationSteps?: number;
  /** Integrated gradients' baseline (see `StepGradientOptions.integratedGradients`). Default `'pad'`. */
  baseline?: IntegrationBaseline;
  /** Tokens listed per step and method. Default 5. */
  top?: number;
  /** Which steps to explain (0-based); default all. */
  steps?: readonly number[];
}

function largest(tokens: readonly TokenAttribution[], key: 'integratedGradients' | 'gradientTimesInput', count: number): TokenAttribution[] {
  return tokens
    .filter((token) => token.text.trim() !== '')
    .sort((a, b) => Math.abs(b[key]) - Math.abs(a[key]) || a.index - b.index)
    .slice(0, count);
}

/**
 * Token attribution for each step's score (GRADIENTS and ACTIVATIONS): gradient × input, and
 * integrated gradients over `integrationSteps` points from the baseline, per token up to the
 * step's read position, with the top tokens of each and the completeness check (how far the
 * integrated gradients' sum is from score − score(baseline)).
 *
 * @example
 * const { attributions } = await attributeSteps(prm, [problem, solution], { integrationSteps: 32 });
 * attributions[1].top.integratedGradients.map((token) => token.text);
 */
export async function attributeSteps(prm: ProcessRM, input: ScoringInput, options: AttributionOptions = {}): Promise<PairAttribution> {
  const integrationSteps = options.integrationSteps ?? 32;
  const top = options.top ?? 5;
  const pair = await prm.segment(input);
  const evidence = await prm.stepGradients([input], {
    integratedGradients: { steps: integrationSteps, baseline: options.baseline ?? 'pad' },
    ...(options.steps ? { steps: options.steps } : {}),
  });
  const explained = evidence.value.pairs[0]!;
  const attributions = explained.steps.map((step): StepAttribution => {
    const tokens = Array.from({ length: step.readTokenIndex + 1 }, (_, index): TokenAttribution => {
      const charSpan = explained.offsets[index]!;
      return {
        index,
        text: pair.text.slice(charSpan[0], charSpan[1]),
        charSpan,
        gradientTimesInput: step.gradientTimesInput[index]!,
        integratedGradients: step.integratedGradients![index]!,
      };
    });
    return {
      step: step.step,
      text: pair.steps[step.step]!.text,
      score: step.score,
      readTokenIndex: step.readTokenIndex,
      tokens,
      top: { integratedGradients: largest(tokens, 'integratedGradients', top), gradientTimesInput: largest(tokens, 'gradientTimesInput', top) },
      integration: step.integration!,
    };
  });
  return {
    text: pair.text,
    steps: pair.steps.map((step) => ({ text: step.text, charSpan: step.charSpan, readTokenIndex: step.readTokenIndex })),
    attributions,
    notes: evidence.notes,
  };
}
