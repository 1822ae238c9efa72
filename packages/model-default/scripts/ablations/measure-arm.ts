import '@reward-lens/backend-tiny/register';
import { ProcessRM } from '@reward-lens/core';
import type { ProcessBenchConfusion, VerificationIndex } from '@reward-lens/eval';
import type { TrainerState } from '@reward-lens/train';
import { createOrganism } from '@reward-lens/organism';
import { splitItems, splitSeeds } from '../default-recipe.js';
import { arithmeticProbeItems } from './arithmetic-probe.js';
import { calibrate, matchedPairs } from '../evaluate-default.js';
import type { Arm } from './arms.js';
import { evaluateByKind, type KindFigures } from '../kind-breakdown.js';
import { modelParameters } from './model-parameters.js';
import { overlapWithEvaluation } from './overlap.js';

/** Sizes of the evaluation splits, as the retraining script measures the shipped model. */
export const evaluationSizes = { calibration: 400, test: 1000, pairs: 500, arithmeticProbe: 900 } as const;

/** An arm's figures: how it trained, and how it does on held-out seeds as a user would measure it. */
export interface ArmFigures {
  arm: string;
  change: string;
  mix: string;
  numLayers: number;
  languageModelWeight: number;
  parameters: number;
  training: {
    steps: number;
    tokens: number;
    records: number;
    /** Seconds in optimizer steps (the trainer's count, over every session), without held-out evaluations. */
    seconds: number;
    tokensPerSecond: number;
    /** Wall-clock seconds of the training sessions (held-out evaluations and checkpoints included). */
    wallSeconds: number;
    heldOutLoss: number;
    /** Held-out (seed 1000, 300 items) loss and F1 at threshold 0.5 along the run. */
    heldOut: { step: number; loss: number; f1: number }[];
    overlapWithEvaluation: number;
  };
  threshold: number;
  calibration: { eceBefore: number; eceAfter: number };
  test: {
    items: number;
    f1: number;
    errorAccuracy: number;
    correctAccuracy: number;
    auroc: number;
    confusion: ProcessBenchConfusion;
    byKind: Record<string, KindFigures>;
  };
  pairs: { all: VerificationIndex; byKind: Record<string, VerificationIndex> };
  /** Exact first error per kind on 900 erroneous items of the arithmetic kinds (seed 1004), at the same threshold. */
  arithmeticProbe: Record<string, KindFigures>;
  measureSeconds: number;
}

/**
 * Measures a trained arm as a user of the shipped model would: Platt calibration and the
 * threshold fitted on the calibration split (seed 1001), then the test split (seed 1002) by
 * error kind and the matched pairs (seed 1003).
 */
export async function measureArm(arm: Arm, folder: string, state: TrainerState, wallSeconds: number): Promise<ArmFigures> {
  const started = performance.now();
  const calibrationItems = splitItems(arm.recipe, 'calibration', evaluationSizes.calibration);
  const testItems = splitItems(arm.recipe, 'test', evaluationSizes.test);
  const probeItems = arithmeticProbeItems(arm.recipe, evaluationSizes.arithmeticProbe);
  const pairItems = createOrganism({ ...arm.recipe.organism, seed: splitSeeds.pairs })
    .pairs(evaluationSizes.pairs)
    .flatMap((pair) => [pair.clean, pair.flawed]);
  const overlap = overlapWithEvaluation(arm, state.cursor, [...calibrationItems, ...testItems, ...pairItems, ...probeItems]);
  const raw = await ProcessRM.fromPretrained(folder, { backend: 'tiny', ...(arm.reading !== undefined ? { recipe: arm.reading } : {}) });
  const { calibration, threshold } = await calibrate(raw, calibrationItems, `organism calibration split (seed 1001, ${evaluationSizes.calibration} items)`);
  const prm = raw.withCalibration(calibration);
  const test = await evaluateByKind(prm, testItems, threshold);
  const pairs = await matchedPairs(prm, arm.recipe, evaluationSizes.pairs);
  const probe = await evaluateByKind(prm, probeItems, threshold);
  const { metrics } = test.evaluation;
  return {
    arm: arm.name,
    change: arm.change,
    mix: arm.mix,
    numLayers: arm.recipe.config.numLayers,
    languageModelWeight: arm.recipe.languageModelWeight,
    parameters: await modelParameters(folder),
    training: {
      steps: state.step,
      tokens: state.tokensSeen,
      records: state.cursor,
      seconds: state.trainingSeconds,
      tokensPerSecond: state.tokensSeen / state.trainingSeconds,
      wallSeconds,
      heldOutLoss: state.evaluations.at(-1)?.loss ?? Number.NaN,
      heldOut: state.evaluations.map((evaluation) => ({ step: evaluation.step, loss: evaluation.loss, f1: evaluation.f1 })),
      overlapWithEvaluation: overlap,
    },
    threshold: threshold.value,
    calibration: { eceBefore: calibration.diagnostics!.eceBefore, eceAfter: calibration.diagnostics!.eceAfter },
    test: {
      items: test.evaluation.items,
      f1: metrics.f1,
      errorAccuracy: metrics.errorAccuracy,
      correctAccuracy: metrics.correctAccuracy,
      auroc: test.evaluation.auroc.auroc,
      confusion: metrics.confusion,
      byKind: test.byKind,
    },
    pairs: { all: pairs.all, byKind: pairs.byKind },
    arithmeticProbe: Object.fromEntries(Object.entries(probe.byKind).filter(([, figures]) => figures.items > 0)),
    measureSeconds: (performance.now() - started) / 1000,
  };
}
