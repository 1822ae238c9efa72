import { applyStepCalibration, type ProcessRM, type StepCalibration } from '@reward-lens/core';
import {
  chooseThreshold,
  evaluateProcessBench,
  fitStepCalibration,
  labelledStepsOf,
  processBenchFromArray,
  scoreCalibrationSplit,
  verificationIndex,
  type ChosenThreshold,
  type ProcessBenchEvaluation,
  type VerificationIndex,
} from '@reward-lens/eval';
import { createOrganism, toProcessBench, type OrganismItem } from '@reward-lens/organism';
import { splitSeeds, type DefaultRecipe } from './default-recipe.js';

export interface Calibrated {
  calibration: StepCalibration;
  /** Chosen on the calibration split, on calibrated scores. */
  threshold: ChosenThreshold;
}

/**
 * Fits the shipped calibration on the calibration split (Platt scaling: strictly monotone, so
 * calibrated scores keep every ranking, argmin and matched-pair order of the raw ones) and
 * chooses ProcessBench's threshold there, on the calibrated scores.
 */
export async function calibrate(prm: ProcessRM, items: readonly OrganismItem[], name: string): Promise<Calibrated> {
  const records = items.map((item) => toProcessBench(item));
  const scored = await scoreCalibrationSplit(prm, processBenchFromArray(records));
  const calibration = fitStepCalibration(labelledStepsOf(scored.items), {
    method: 'platt',
    reading: 'probability',
    set: { name, domain: 'organism word problems (reward-lens organism, default settings)', items: scored.items.length },
  });
  // The calibrated scores are the raw ones through the map (as prm.withCalibration reads them): no second pass.
  const calibrated = scored.items.map((item) => ({ ...item, stepScores: item.stepScores.map((score) => applyStepCalibration(calibration.map, score)) }));
  const threshold = chooseThreshold(calibrated, { name });
  // Shipped with the map, so every user of the model reads the same decision point.
  return { calibration: { ...calibration, threshold: { value: threshold.value, chosenOn: name } }, threshold };
}

/** ProcessBench's metric on organism items scored by `prm` at a threshold chosen elsewhere. */
export async function evaluateOrganism(prm: ProcessRM, items: readonly OrganismItem[], threshold: ChosenThreshold): Promise<ProcessBenchEvaluation> {
  const records = items.map((item) => toProcessBench(item));
  return (await evaluateProcessBench(prm, processBenchFromArray(records), { threshold })).evaluation;
}

export interface MatchedPairFigures {
  all: VerificationIndex;
  /** The same index over the pairs of each injected error kind. */
  byKind: Record<string, VerificationIndex>;
}

/**
 * The verification index on the organism's matched pairs: the same solution with and without one
 * injected error; the flawed step should score lower than the clean step in its place.
 */
export async function matchedPairs(prm: ProcessRM, recipe: DefaultRecipe, count: number): Promise<MatchedPairFigures> {
  const organism = createOrganism({ ...recipe.organism, seed: splitSeeds.pairs });
  const pairs = organism.pairs(count);
  const scored = await prm.stepScores(
    pairs.flatMap((pair) => [
      { problem: pair.problem, steps: [...pair.clean.steps] },
      { problem: pair.problem, steps: [...pair.flawed.steps] },
    ]),
  );
  const compared = pairs.map((pair, index) => ({
    kind: pair.errorKind,
    clean: scored.value.curves[2 * index]![pair.step]!,
    flawed: scored.value.curves[2 * index + 1]![pair.step]!,
  }));
  const kinds = [...new Set(compared.map((pair) => pair.kind))].sort();
  return {
    all: verificationIndex(compared),
    byKind: Object.fromEntries(kinds.map((kind) => [kind, verificationIndex(compared.filter((pair) => pair.kind === kind))])),
  };
}
