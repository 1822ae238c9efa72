import type { OrganismItem, OrganismPolicy } from '@reward-lens/organism';
import { deriveSeed, monteCarloLabels, type StepPolicy } from '@reward-lens/search';

/** Per step of a solution: whether the solution up to it has no error (ProcessBench's labels). */
export function trueStepLabels(item: Pick<OrganismItem, 'steps' | 'firstErrorStep'>): boolean[] {
  return item.steps.map((_, index) => item.firstErrorStep === -1 || index < item.firstErrorStep);
}

/**
 * Whether the policy can continue every prefix of the solution: it refuses one whose running
 * quantity cannot take the remaining operations in whole numbers (a flawed "27 ÷ 4 = 7").
 */
export function continuable(policy: OrganismPolicy, item: Pick<OrganismItem, 'problem' | 'steps'>): boolean {
  return item.steps.every((_, index) => {
    try {
      policy.successProbability(item.problem, item.steps.slice(0, index + 1));
      return true;
    } catch {
      return false;
    }
  });
}

/** One labelled step: the truth, the closed-form success probability after it, and its MC value. */
export interface LabelledStep {
  truth: boolean;
  /** P(a rollout from the prefix through this step reaches the answer), the policy's closed form. */
  exact: number;
  /** v_k: the share of N rollouts that did (for the last step: its own stated answer checked). */
  value: number;
}

/**
 * The MC values of every step of every item, with `rollouts` rollouts per prefix (the API's
 * `monteCarloLabels`, sweep mode). Item i's rollouts are seeded `deriveSeed(seed, i)`: one seed for
 * all would draw the same random numbers for every item's prefix k, and the items' labels would
 * err together instead of independently.
 */
export async function labelSteps(
  stepPolicy: StepPolicy,
  organismPolicy: OrganismPolicy,
  items: readonly OrganismItem[],
  rollouts: number,
  seed: number,
): Promise<LabelledStep[][]> {
  const labelled: LabelledStep[][] = [];
  for (const [index, item] of items.entries()) {
    const labels = await monteCarloLabels(
      stepPolicy,
      { problem: item.problem, steps: [...item.steps], reference: String(item.answer) },
      { rollouts, seed: deriveSeed(seed, index) },
    );
    const truth = trueStepLabels(item);
    labelled.push(
      labels.soft.map((value, index) => ({
        truth: truth[index]!,
        exact: organismPolicy.successProbability(item.problem, item.steps.slice(0, index + 1)),
        value,
      })),
    );
  }
  return labelled;
}

/** Hard and soft MC labels against the truth, measured and as the closed form predicts for N rollouts. */
export interface LabelQuality {
  rollouts: number;
  steps: number;
  wrongSteps: number;
  /** Hard labels 1[v > 0] equal to the truth. */
  accuracy: number;
  expectedAccuracy: number;
  /** Truly wrong steps labelled correct (v > 0). */
  falseCorrect: number;
  expectedFalseCorrect: number;
  /** Truly correct steps labelled wrong (v = 0). */
  falseWrong: number;
  expectedFalseWrong: number;
  /** Soft labels: root mean square of v − P, and its expectation sqrt(mean P(1 − P)/N). */
  softRmse: number;
  expectedSoftRmse: number;
}

/**
 * Scores MC labels made with N rollouts. A step's hard label is "correct" with probability
 * 1 − (1 − P)^N, P its closed-form success probability, so the expectations are exact means over
 * the same steps (the last step's value is its stated answer, P 0 or 1, the same either way).
 */
export function labelQuality(steps: readonly LabelledStep[], rollouts: number): LabelQuality {
  const correctOdds = (step: LabelledStep) => 1 - (1 - step.exact) ** rollouts;
  const mean = (list: readonly LabelledStep[], value: (step: LabelledStep) => number) =>
    list.length === 0 ? Number.NaN : list.reduce((sum, step) => sum + value(step), 0) / list.length;
  const wrong = steps.filter((step) => !step.truth);
  const right = steps.filter((step) => step.truth);
  const labelledCorrect = (step: LabelledStep) => (step.value > 0 ? 1 : 0);
  return {
    rollouts,
    steps: steps.length,
    wrongSteps: wrong.length,
    accuracy: mean(steps, (step) => (labelledCorrect(step) === (step.truth ? 1 : 0) ? 1 : 0)),
    expectedAccuracy: mean(steps, (step) => (step.truth ? correctOdds(step) : 1 - correctOdds(step))),
    falseCorrect: mean(wrong, labelledCorrect),
    expectedFalseCorrect: mean(wrong, correctOdds),
    falseWrong: mean(right, (step) => 1 - labelledCorrect(step)),
    expectedFalseWrong: mean(right, (step) => 1 - correctOdds(step)),
    softRmse: Math.sqrt(mean(steps, (step) => (step.value - step.exact) ** 2)),
    expectedSoftRmse: Math.sqrt(mean(steps, (step) => (step.exact * (1 - step.exact)) / rollouts)),
  };
}
