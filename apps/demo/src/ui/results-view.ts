import type { DemoExample } from '../examples/demo-example.js';
import { barScale, curveScale, formatScore } from '../scoring/bar-scale.js';
import { aggregateNames, type ScoredSolution } from '../scoring/score-solution.js';
import { element, replaceChildren } from './element.js';
import { stepCurve } from './step-curve.js';

const aggregateMeaning = {
  min: 'the weakest step (the usual PRM aggregate)',
  prod: 'all steps multiplied',
  mean: 'the average step',
  last: 'the last step: the outcome',
} as const;

function trustReason(scored: ScoredSolution): string {
  if (scored.outOfDomain !== undefined) return ` (outside the model's domain: ${scored.outOfDomain})`;
  return scored.trust === 'EXPLORATORY' ? ' (no calibration attached)' : '';
}

/** The prediction against the label, in ProcessBench's terms (found, passed, early, late, missed, false alarm). */
function verdictText(predicted: number, truth: number): string {
  if (predicted === truth) return truth >= 0 ? ': the labelled first error, found.' : ': the solution is labelled correct, passed.';
  if (truth < 0) return '; the solution is labelled correct: a false alarm.';
  const how = predicted < 0 ? 'missed' : predicted < truth ? 'flagged too early' : 'flagged too late';
  return `; the labelled first error is step ${truth + 1}, ${how}.`;
}

/**
 * The threshold and what it predicts (`data-predicted`: the 0-based step, -1 none), and, for a
 * labelled example, whether that is the labelled first error (`data-verdict`).
 */
function thresholdLine(scored: ScoredSolution, labelled: DemoExample | undefined): HTMLElement | null {
  if (scored.threshold === undefined) return null;
  const predicted = scored.predictedError;
  const prediction = predicted >= 0 ? `the first step below it is step ${predicted + 1}` : 'no step is below it (no error predicted)';
  const verdictId = labelled === undefined ? 'unlabelled' : predicted === labelled.firstError ? 'match' : 'mismatch';
  const verdict = labelled === undefined ? '.' : verdictText(predicted, labelled.firstError);
  return element(
    'p',
    { class: `threshold threshold-${verdictId}`, 'data-predicted': String(predicted), 'data-verdict': verdictId },
    `Threshold ${formatScore(scored.threshold.value)} (chosen on ${scored.threshold.chosenOn}): ${prediction}${verdict}`,
  );
}

/**
 * Renders a scored solution: a row per step with its bar (`data-step-index`, `data-score` the
 * unrounded score), the lowest step highlighted, the curve, the aggregates and the outcome
 * (`data-outcome`) beside the last step's score. `labelled` is the example's known first error
 * when the text is still the example's.
 */
export function renderResults(container: HTMLElement, scored: ScoredSolution, labelled: DemoExample | undefined): void {
  const scores = scored.steps.map((step) => step.score);
  const scale = barScale(scored.gauge, scores);
  const firstError = labelled?.firstError ?? -1;
  const predicted = scored.predictedError;

  const rows = scored.steps.map((step) => {
    const isLowest = step.index === scored.lowest;
    const isLabelled = step.index === firstError;
    const isPredicted = step.index === predicted;
    const badges = [
      isLowest ? element('span', { class: 'badge badge-lowest' }, 'lowest') : null,
      isPredicted ? element('span', { class: 'badge badge-predicted' }, 'first below threshold') : null,
      isLabelled ? element('span', { class: 'badge badge-label' }, 'labelled first error') : null,
    ];
    return element(
      'li',
      {
        class: `step${isLowest ? ' step-lowest' : ''}${isPredicted ? ' step-predicted' : ''}${isLabelled ? ' step-labelled' : ''}`,
        'data-step-index': step.index,
        'data-score': String(step.score),
        'aria-label': `Step ${step.index + 1}, score ${formatScore(step.score)}${isLowest ? ', the lowest' : ''}${isPredicted ? ', the first below the threshold' : ''}${isLabelled ? ', the labelled first error' : ''}`,
      },
      element('span', { class: 'step-number', 'aria-hidden': 'true' }, String(step.index + 1)),
      element('span', { class: 'step-text' }, step.text, ...badges),
      element(
        'span',
        { class: 'step-bar', 'aria-hidden': 'true' },
        element('span', { class: 'step-bar-fill', style: `width: ${(scale.fraction(step.score) * 100).toFixed(2)}%` }),
      ),
      element('span', { class: 'step-score' }, formatScore(step.score)),
    );
  });

  const last = scores[scores.length - 1]!;
  const identity = scored.outcomeGap === 0 ? 'equal, exactly' : `equal within ${scored.outcomeGap.toExponential(1)}`;
  replaceChildren(
    container,
    element('p', { class: 'hint' }, scale.description, labelled ? ` Label: ${labelled.labelNote}.` : ''),
    thresholdLine(scored, labelled),
    element('ol', { class: 'steps', 'aria-label': 'Steps and their scores' }, ...rows),
    element(
      'figure',
      { class: 'curve-figure' },
      stepCurve(scores, scored.lowest, firstError, curveScale(scored.gauge, scores)),
      element('figcaption', {}, 'The step curve: each step’s score, in order. The largest dot is the lowest step; a ring marks the labelled first error.'),
    ),
    element(
      'div',
      { class: 'summary' },
      element(
        'dl',
        { class: 'aggregates', 'aria-label': 'Aggregates of the step scores' },
        ...aggregateNames.flatMap((name) => [
          element('dt', {}, name, element('span', { class: 'hint' }, ` ${aggregateMeaning[name]}`)),
          element('dd', { 'data-aggregate': name, 'data-value': String(scored.aggregates[name]) }, formatScore(scored.aggregates[name])),
        ]),
      ),
      element(
        'div',
        { class: 'outcome' },
        element('p', { class: 'outcome-value' }, 'Outcome ', element('strong', { 'data-outcome': String(scored.outcome) }, formatScore(scored.outcome))),
        element(
          'p',
          { class: 'identity' },
          `Last step = outcome: step ${scores.length} scored ${formatScore(last)}, the outcome call gave ${formatScore(scored.outcome)} (${identity}). One pass reads every step; the last read is the whole solution's score.`,
        ),
        element('p', { class: 'hint' }, `Trust: ${scored.trust}${trustReason(scored)}. ${scored.tokenCount} tokens; steps found by ${scored.stepMethod}.`),
      ),
    ),
  );
}
