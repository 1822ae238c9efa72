import {
  boundaryProbabilities,
  fitProbe,
  InvalidInputError,
  RewardLensError,
  stepsFromProbabilities,
  validateStepDetector,
  type FitProbeOptions,
  type ProcessRM,
  type SolutionTokenFeatures,
  type StepDetector,
} from '@reward-lens/core';
import { TrainingRandom } from '../random.js';
import { boundaryEnds, boundaryMetrics, type BoundaryMetrics } from './boundary-metrics.js';
import { boundaryTokenLabels, detectorExamples, type DetectorExample } from './detector-examples.js';

export interface TrainStepDetectorOptions {
  /** The PRM whose hidden states the detector reads (ACTIVATIONS). */
  prm: ProcessRM;
  /** Solutions split into steps (ProcessBench, TRL, organism records): the steps are joined with spaces, and the labels are where the delimiters were. */
  data: readonly { problem: string; steps: readonly string[] }[];
  /** Solutions never fitted on or used to choose anything, for the figures the detector ships with. */
  heldOut: readonly { problem: string; steps: readonly string[] }[];
  /** What the held-out solutions are (the detector's `heldOut.data`), e.g. `organism seed 1, 400 items`. */
  heldOutDescription: string;
  /** What `data` is, for the detector's `training` record. */
  dataDescription?: string;
  /** The detector's name. Default `learned-steps-<recipe>`. */
  name?: string;
  /** Layers tried (default every one, 0 to numLayers); the best on the validation split is kept. */
  layers?: readonly number[];
  /** 1 (default): a token's features are its hidden state and the next token's, which has seen one token more; 0: its own only. */
  lookahead?: 0 | 1;
  /** Hidden units of an MLP probe; 0 (default) a linear probe. */
  hiddenUnits?: number;
  /** Share of `data` set aside to choose the layer and the threshold. Default 0.2. */
  validationFraction?: number;
  /** At most this many tokens (rows) are fitted on per layer. Default 200,000. */
  maxTokens?: number;
  /** Seeds the split and the probe. Default 0. */
  seed?: number;
  /** Passed to `fitProbe` (epochs, learning rate, L2...). Positives are weighted `'balanced'` unless said otherwise. */
  probe?: FitProbeOptions;
  onEvent?: (event: DetectorTrainingEvent) => void;
}

/** Progress of a detector's training. */
export type DetectorTrainingEvent =
  | { kind: 'features'; split: 'fit' | 'validation' | 'held-out'; solutions: number; tokens: number }
  | { kind: 'layer'; layer: number; threshold: number; validation: BoundaryMetrics }
  | { kind: 'held-out'; layer: number; metrics: BoundaryMetrics };

export interface TrainStepDetectorResult {
  detector: StepDetector;
  /** Solutions left out: with fewer than two steps, or that the PRM cannot read (longer than its positions). */
  skipped: { data: { oneStep: number; unreadable: number }; heldOut: { oneStep: number; unreadable: number } };
  /** Per layer tried: the threshold chosen on the validation split and the validation figures there. */
  layers: { layer: number; threshold: number; validation: BoundaryMetrics }[];
  heldOut: BoundaryMetrics;
}

/** Thresholds tried on the validation split: evenly spaced logits from -6 to 6 (probabilities 0.0025 to 0.9975). */
const thresholds = Array.from({ length: 25 }, (_, index) => Number((1 / (1 + Math.exp(-(index / 2 - 6)))).toPrecision(4)));
/** Solutions per forward batch of feature reads (bounds the memory held at once). */
const chunkSize = 32;

/** Features of examples at several layers, read chunk by chunk. */
async function readFeatures(
  prm: ProcessRM,
  examples: readonly DetectorExample[],
  layers: readonly number[],
  lookahead: 0 | 1,
  /** Returns false to stop reading. */
  use: (example: DetectorExample, tokens: SolutionTokenFeatures) => boolean,
): Promise<void> {
  for (let start = 0; start < examples.length; start += chunkSize) {
    const chunk = examples.slice(start, start + chunkSize);
    const features = await prm.detectionFeatures(
      chunk.map(({ problem, solution }) => ({ problem, solution })),
      { layers, lookahead },
    );
    for (const [index, tokens] of features.entries()) if (!use(chunk[index]!, tokens)) return;
  }
}

function concatenate(parts: readonly Float32Array[], total: number): Float32Array {
  const joined = new Float32Array(total);
  let offset = 0;
  for (const part of parts) {
    joined.set(part, offset);
    offset += part.length;
  }
  return joined;
}

/** What the detector finds, per solution, at a threshold: the ends of all its steps but the last. */
function foundEnds(detector: StepDetector, solutions: readonly { tokens: SolutionTokenFeatures; probabilities: Float64Array }[], threshold: number) {
  const at = { ...detector, threshold };
  return solutions.map(({ tokens, probabilities }) => boundaryEnds(stepsFromProbabilities(at, tokens, probabilities).spans));
}

/**
 * Fits a learned step-boundary detector for a PRM: solutions with their delimiters removed (steps
 * joined with spaces) are laid out as the PRM reads a one-step solution; at every token, the
 * hidden state after each candidate layer (and the next token's) is a row, labelled 1 where a step
 * ended. A probe is fitted per layer; the layer and the threshold with the best boundary F1 on a
 * validation split are kept, and the detector is measured on held-out solutions it never saw.
 *
 * @example
 * const { detector, heldOut } = await trainStepDetector({ prm, data, heldOut: test, heldOutDescription: 'organism seed 1' });
 * await writeFile('my-prm/step-detector.json', JSON.stringify(detector));
 */
export async function trainStepDetector(options: TrainStepDetectorOptions): Promise<TrainStepDetectorResult> {
  const { prm } = options;
  const info = prm.backend.info;
  const lookahead = options.lookahead ?? 1;
  const layers = options.layers ?? Array.from({ length: info.numLayers + 1 }, (_, layer) => layer);
  if (layers.length === 0) throw new InvalidInputError('at least one layer must be tried', { location: 'options.layers' });
  const maxTokens = options.maxTokens ?? 200_000;
  const seed = options.seed ?? 0;
  const onEvent = options.onEvent ?? (() => {});

  // Solutions the PRM cannot read as one step (longer than its positions, say) are left out and counted.
  const readable = (example: DetectorExample) => {
    try {
      prm.tokenize({ problem: example.problem, steps: [example.solution] });
      return true;
    } catch (error) {
      if (RewardLensError.isInstance(error)) return false;
      throw error;
    }
  };
  const all = detectorExamples(options.data);
  const examples = all.examples.filter(readable);
  const skipped = { oneStep: all.skipped, unreadable: all.examples.length - examples.length };
  const heldOutAll = detectorExamples(options.heldOut);
  const heldOut = heldOutAll.examples.filter(readable);
  const heldOutSkipped = { oneStep: heldOutAll.skipped, unreadable: heldOutAll.examples.length - heldOut.length };
  if (examples.length < 2) throw new InvalidInputError(`at least two solutions of two or more steps are needed to fit and validate, got ${examples.length}`);
  if (heldOut.length === 0) throw new InvalidInputError('the held-out data has no solution of two or more steps', { location: 'options.heldOut' });
  const order = new TrainingRandom(seed).permutation(examples.length);
  const validationCount = Math.min(examples.length - 1, Math.max(1, Math.round(examples.length * (options.validationFraction ?? 0.2))));
  const validation = Array.from(order.subarray(0, validationCount), (index) => examples[index]!);
  const fitting = Array.from(order.subarray(validationCount), (index) => examples[index]!);

  // Rows to fit on, per layer, up to maxTokens.
  const parts = layers.map(() => [] as Float32Array[]);
  const labelParts: Uint8Array[] = [];
  let rows = 0;
  let width = 0;
  let fitSolutions = 0;
  await readFeatures(prm, fitting, layers, lookahead, (example, tokens) => {
    if (rows >= maxTokens) return false;
    width = tokens.width;
    const take = Math.min(tokens.tokenSpans.length, maxTokens - rows);
    tokens.features.forEach((values, layer) => parts[layer]!.push(values.subarray(0, take * width)));
    labelParts.push(boundaryTokenLabels(tokens.tokenSpans, example).subarray(0, take));
    rows += take;
    fitSolutions += 1;
    return true;
  });
  onEvent({ kind: 'features', split: 'fit', solutions: fitSolutions, tokens: rows });
  const labels = new Uint8Array(rows);
  let offset = 0;
  for (const part of labelParts) {
    labels.set(part, offset);
    offset += part.length;
  }
  if (!labels.includes(1)) throw new InvalidInputError('no labelled boundary among the tokens fitted on');

  const name = options.name ?? `learned-steps-${prm.recipe.name}`;
  const probes = layers.map((_, layer) => {
    const probe = fitProbe(concatenate(parts[layer]!, rows * width), labels, { positiveWeight: 'balanced', seed, ...options.probe });
    parts[layer] = [];
    return probe;
  });
  const draft = (layerIndex: number, threshold: number): StepDetector => ({
    format: 'reward-lens.step-detector',
    version: 1,
    name,
    model: { hiddenSize: info.hiddenSize, numLayers: info.numLayers, vocabSize: info.vocabSize, recipe: prm.recipe.name, description: info.description },
    layer: layers[layerIndex]!,
    lookahead,
    probe: probes[layerIndex]!,
    threshold,
    heldOut: { precision: 0, recall: 0, f1: 0, boundaries: 0, solutions: 0, data: options.heldOutDescription },
  });

  // The validation split: probabilities per layer, then the best threshold per layer.
  const scored = layers.map(() => [] as { tokens: SolutionTokenFeatures; probabilities: Float64Array }[]);
  const validationEnds: number[][] = [];
  let validationTokens = 0;
  await readFeatures(prm, validation, layers, lookahead, (example, tokens) => {
    validationEnds.push(boundaryEnds(example.stepSpans));
    validationTokens += tokens.tokenSpans.length;
    layers.forEach((_, layerIndex) => {
      const alone = { ...tokens, features: [tokens.features[layerIndex]!] };
      scored[layerIndex]!.push({ tokens: { ...alone, features: [] }, probabilities: boundaryProbabilities(draft(layerIndex, 0.5), alone) });
    });
    return true;
  });
  onEvent({ kind: 'features', split: 'validation', solutions: validation.length, tokens: validationTokens });
  const perLayer = layers.map((layer, layerIndex) => {
    let best = { threshold: 0.5, validation: boundaryMetrics(foundEnds(draft(layerIndex, 0.5), scored[layerIndex]!, 0.5), validationEnds) };
    for (const threshold of thresholds) {
      const metrics = boundaryMetrics(foundEnds(draft(layerIndex, threshold), scored[layerIndex]!, threshold), validationEnds);
      if (metrics.f1 > best.validation.f1) best = { threshold, validation: metrics };
    }
    onEvent({ kind: 'layer', layer, ...best });
    return { layer, ...best };
  });
  const chosen = perLayer.reduce((best, candidate, index) => (candidate.validation.f1 > perLayer[best]!.validation.f1 ? index : best), 0);
  const { threshold } = perLayer[chosen]!;

  // Held out: the chosen layer and threshold, once.
  const kept = draft(chosen, threshold);
  const heldOutScored: { tokens: SolutionTokenFeatures; probabilities: Float64Array }[] = [];
  let heldOutTokens = 0;
  await readFeatures(prm, heldOut, [kept.layer], lookahead, (_, tokens) => {
    heldOutTokens += tokens.tokenSpans.length;
    heldOutScored.push({ tokens: { ...tokens, features: [] }, probabilities: boundaryProbabilities(kept, tokens) });
    return true;
  });
  onEvent({ kind: 'features', split: 'held-out', solutions: heldOut.length, tokens: heldOutTokens });
  const metrics = boundaryMetrics(
    foundEnds(kept, heldOutScored, threshold),
    heldOut.map((example) => boundaryEnds(example.stepSpans)),
  );
  onEvent({ kind: 'held-out', layer: kept.layer, metrics });

  const detector = validateStepDetector({
    ...kept,
    heldOut: {
      precision: metrics.precision,
      recall: metrics.recall,
      f1: metrics.f1,
      boundaries: metrics.boundaries,
      solutions: metrics.solutions,
      data: options.heldOutDescription,
    },
    training: {
      ...(options.dataDescription ? { data: options.dataDescription } : {}),
      solutions: { fitted: fitSolutions, validation: validation.length, skipped, heldOutSkipped },
      tokensFitted: rows,
      seed,
      stepsJoinedWith: ' ',
      layers: perLayer.map((entry) => ({ layer: entry.layer, threshold: entry.threshold, validationF1: entry.validation.f1 })),
    },
  });
  return { detector, skipped: { data: skipped, heldOut: heldOutSkipped }, layers: perLayer, heldOut: metrics };
}
