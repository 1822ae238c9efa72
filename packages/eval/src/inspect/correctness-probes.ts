import { fitProbe, InvalidInputError, probeLogits, type ProcessRM } from '@reward-lens/core';
import { auroc } from '../metrics/auroc.js';
import { createSeededRandom } from '../random/seeded-random.js';
import { readoutLayers } from './layer-readout.js';

/** A solution with a label per step: 1 correct, 0 wrong, NaN left out. */
export interface LabelledSolution {
  problem: string;
  steps: readonly string[];
  stepLabels: readonly number[];
}

/**
 * A ProcessBench item's steps as labels: the steps before the earliest error correct, the error
 * wrong, later steps left out (ProcessBench says nothing about them); every step correct when the
 * label is -1.
 */
export function labelledSteps(item: { problem: string; steps: readonly string[]; label: number }): LabelledSolution {
  return {
    problem: item.problem,
    steps: item.steps,
    stepLabels: item.steps.map((_, step) => (item.label < 0 || step < item.label ? 1 : step === item.label ? 0 : Number.NaN)),
  };
}

/** Held-out figures of one reading of a layer. */
export interface ReadingFigures {
  /** Fraction of held-out steps classified right (a probe at p = 0.5; the head at the threshold chosen on the fitting split). */
  accuracy: number;
  /** Threshold-free: correct steps against wrong ones. */
  auroc: number;
}

export interface LayerProbeRow {
  layer: number;
  /** A linear probe on the hidden state at the step's read position (fitted on the fitting split). */
  probe: ReadingFigures;
  /** The model's own reward head applied after this layer, thresholded where it is most accurate on the fitting split. */
  head: ReadingFigures & { threshold: number };
}

export interface ProbeBattery {
  layers: LayerProbeRow[];
  /** Labelled steps (and the solutions they come from) of each split, and how many are correct. */
  fitting: { solutions: number; steps: number; correct: number };
  heldOut: { solutions: number; steps: number; correct: number };
  /** The held-out accuracy of always answering the fitting split's majority label. */
  majorityAccuracy: number;
  /** Which solutions (indices into the input, ascending) were held out. */
  heldOutIndices: number[];
  seed: number;
}

interface SplitReads {
  features: Float32Array;
  headScores: number[];
  labels: number[];
}

/** Per layer, the hidden states and the head's scores at the labelled steps of `solutions`. */
async function readSplit(prm: ProcessRM, solutions: readonly LabelledSolution[], layer: number): Promise<SplitReads> {
  const inputs = solutions.map((solution) => ({ problem: solution.problem, steps: solution.steps }));
  const [activations, scores] = await Promise.all([prm.stepActivations(inputs, { layer }), prm.stepScores(inputs, { layer })]);
  const width = activations.value.hiddenSize;
  const rows: Float32Array[] = [];
  const headScores: number[] = [];
  const labels: number[] = [];
  solutions.forEach((solution, index) => {
    solution.stepLabels.forEach((label, step) => {
      if (label !== 0 && label !== 1) return;
      rows.push(activations.value.values[index]!.subarray(step * width, (step + 1) * width));
      headScores.push(scores.value.curves[index]![step]!);
      labels.push(label);
    });
  });
  const features = new Float32Array(rows.length * width);
  rows.forEach((row, index) => features.set(row, index * width));
  return { features, headScores, labels };
}

/** The threshold with the best accuracy on (score, label) pairs, "score ≥ threshold means correct"; midpoints between distinct scores. */
function mostAccurateThreshold(scores: readonly number[], labels: readonly number[]): number {
  const order = scores.map((score, index) => ({ score, label: labels[index]! })).sort((a, b) => a.score - b.score);
  // Everything at or above the threshold is called correct: start below every score.
  let correctAbove = order.filter((entry) => entry.label === 1).length;
  let wrongBelow = 0;
  let best = { accuracy: correctAbove / order.length, threshold: order.length > 0 ? order[0]!.score - 1 : 0 };
  for (let index = 0; index < order.length; index++) {
    if (order[index]!.label === 1) correctAbove -= 1;
    else wrongBelow += 1;
    if (index + 1 < order.length && order[index + 1]!.score === order[index]!.score) continue;
    const accuracy = (correctAbove + wrongBelow) / order.length;
    const threshold = index + 1 < order.length ? (order[index]!.score + order[index + 1]!.score) / 2 : order[index]!.score + 1;
    if (accuracy > best.accuracy) best = { accuracy, threshold };
  }
  return best.threshold;
}

function figures(predictions: readonly boolean[], scores: readonly number[], labels: readonly number[]): ReadingFigures {
  const right = predictions.filter((prediction, index) => prediction === (labels[index] === 1)).length;
  return {
    accuracy: right / labels.length,
    auroc: auroc(
      scores.filter((_, index) => labels[index] === 1),
      scores.filter((_, index) => labels[index] === 0),
    ),
  };
}

/**
 * The linear-readout battery's second part: which layers carry the step-correctness signal. The
 * solutions are split (seeded, by solution, so no solution's steps are on both sides); at each
 * layer a linear probe (`fitProbe`, L2-penalised logistic regression) is fitted on the hidden
 * states at the fitting split's labelled steps and measured on the held-out split, beside the
 * model's own reward head read after that layer. Needs ACTIVATIONS and LINEAR_READOUT.
 *
 * @example
 * const battery = await probeBattery(prm, items.map(labelledSteps), { heldOutFraction: 0.3 });
 * battery.layers.map((row) => [row.layer, row.probe.accuracy, row.head.accuracy]);
 */
export async function probeBattery(
  prm: ProcessRM,
  solutions: readonly LabelledSolution[],
  options: { layers?: readonly number[]; heldOutFraction?: number; seed?: number; l2?: number; epochs?: number } = {},
): Promise<ProbeBattery> {
  const layers = readoutLayers(prm, options.layers);
  const seed = options.seed ?? 0;
  const fraction = options.heldOutFraction ?? 0.3;
  if (!(fraction > 0 && fraction < 1)) throw new InvalidInputError(`heldOutFraction must be between 0 and 1, got ${fraction}`);
  if (solutions.length < 2) throw new InvalidInputError('the probe battery needs at least two labelled solutions (one to fit, one held out)');
  const random = createSeededRandom(seed);
  const order = solutions.map((_, index) => index);
  for (let index = order.length - 1; index > 0; index--) {
    const other = Math.floor(random.next() * (index + 1));
    [order[index], order[other]] = [order[other]!, order[index]!];
  }
  const heldCount = Math.min(solutions.length - 1, Math.max(1, Math.round(solutions.length * fraction)));
  const heldOut = order.slice(0, heldCount).map((index) => solutions[index]!);
  const fitting = order.slice(heldCount).map((index) => solutions[index]!);

  const rows: LayerProbeRow[] = [];
  let counts: { fitting: SplitReads; heldOut: SplitReads } | undefined;
  for (const layer of layers) {
    const fit = await readSplit(prm, fitting, layer);
    const held = await readSplit(prm, heldOut, layer);
    counts ??= { fitting: fit, heldOut: held };
    if (new Set(fit.labels).size < 2) throw new InvalidInputError('the fitting split has only one kind of label: the probes need correct and wrong steps');
    const probe = fitProbe(fit.features, fit.labels, { l2: options.l2 ?? 1e-2, epochs: options.epochs ?? 40, seed });
    const logits = Array.from(probeLogits(probe, held.features, held.labels.length));
    const threshold = mostAccurateThreshold(fit.headScores, fit.labels);
    rows.push({
      layer,
      probe: figures(
        logits.map((logit) => logit >= 0),
        logits,
        held.labels,
      ),
      head: {
        ...figures(
          held.headScores.map((score) => score >= threshold),
          held.headScores,
          held.labels,
        ),
        threshold,
      },
    });
  }
  const split = (reads: SplitReads, count: number) => ({
    solutions: count,
    steps: reads.labels.length,
    correct: reads.labels.filter((label) => label === 1).length,
  });
  const fittingCounts = split(counts!.fitting, fitting.length);
  const heldOutCounts = split(counts!.heldOut, heldOut.length);
  const majorityCorrect = fittingCounts.correct * 2 >= fittingCounts.steps;
  return {
    layers: rows,
    fitting: fittingCounts,
    heldOut: heldOutCounts,
    majorityAccuracy: (majorityCorrect ? heldOutCounts.correct : heldOutCounts.steps - heldOutCounts.correct) / heldOutCounts.steps,
    heldOutIndices: order.slice(0, heldCount).sort((a, b) => a - b),
    seed,
  };
}
