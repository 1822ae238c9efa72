import {
  boundaryProbabilities,
  fitProbe,
  InvalidInputError,
  RewardLensError,
  stepsFromProbabilities,
  validateStepDetector,
  type FitProbeOptions,
  type Probe,
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
  /** At most this many tokens (rows) are fitted on. Default 200,000. */
  maxTokens?: number;
  /**
   * At most this many feature values (rows × features × candidate layers) are held while the layer
   * is chosen (default 50,000,000, 200 MB); when that allows fewer rows than `maxTokens`, the
   * chosen layer is then refitted alone on up to `maxTokens` rows.
   */
  maxSelectionValues?: number;
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

function concatenate<Values extends Float32Array | Uint8Array>(parts: readonly Values[], total: number, Type: new (length: number) => Values): Values {
  const joined = new Type(total);
  let offset = 0;
  for (const part of parts) {
    joined.set(part, offset);
    offset += part.length;
  }
  return joined;
}

/** Rows fitted on: per layer asked, `rows × width` features, and a label per row. */
interface FeatureRows {
  features: Float32Array[];
  labels: Uint8Array;
  rows: number;
  solutions: number;
}

/** The examples' token rows at `layers`, labelled where steps ended, up to `maxRows` rows. */
async function collectRows(
  prm: ProcessRM,
  examples: readonly DetectorExample[],
  layers: readonly number[],
  lookahead: 0 | 1,
  maxRows: number,
): Promise<FeatureRows> {
  const parts = layers.map(() => [] as Float32Array[]);
  const labelParts: Uint8Array[] = [];
  let rows = 0;
  let width = 0;
  let solutions = 0;
  await readFeatures(prm, examples, layers, lookahead, (example, tokens) => {
    if (rows >= maxRows) return false;
    width = tokens.width;
    const take = Math.min(tokens.tokenSpans.length, maxRows - rows);
    tokens.features.forEach((values, layer) => parts[layer]!.push(values.subarray(0, take * width)));
    labelParts.push(boundaryTokenLabels(tokens.tokenSpans, example).subarray(0, take));
    rows += take;
    solutions += 1;
    return true;
  });
  const labels = concatenate(labelParts, rows, Uint8Array);
  if (!labels.includes(1)) throw new InvalidInputError('no labelled boundary among the tokens fitted on');
  return { features: parts.map((layerParts) => concatenate(layerParts, rows * width, Float32Array)), labels, rows, solutions };
}

/** Each detector's validation probabilities, and per detector the threshold with the best boundary F1 there. */
async function validateDetectors(prm: ProcessRM, validation: readonly DetectorExample[], detectors: readonly StepDetector[]) {
  const scored = detectors.map(() => [] as { tokens: SolutionTokenFeatures; probabilities: Float64Array }[]);
  let tokens = 0;
  const lookahead = detectors[0]!.lookahead;
  await readFeatures(
    prm,
    validation,
    detectors.map((detector) => detector.layer),
    lookahead,
    (_, solution) => {
      tokens += solution.tokenSpans.length;
      detectors.forEach((detector, index) => {
        const alone = { ...solution, features: [solution.features[index]!] };
        scored[index]!.push({ tokens: { ...alone, features: [] }, probabilities: boundaryProbabilities(detector, alone) });
      });
      return true;
    },
  );
  const labelled = validation.map((example) => boundaryEnds(example.stepSpans));
  const best = detectors.map((detector, index) => {
    let found = { threshold: 0.5, validation: boundaryMetrics(foundEnds(detector, scored[index]!, 0.5), labelled) };
    for (const threshold of thresholds) {
      const metrics = boundaryMetrics(foundEnds(detector, scored[index]!, threshold), labelled);
      if (metrics.f1 > found.validation.f1) found = { threshold, validation: metrics };
    }
    return found;
  });
  return { best, tokens, detectors };
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

  const name = options.name ?? `learned-steps-${prm.recipe.name}`;
  const draft = (layer: number, probe: Probe, threshold: number): StepDetector => ({
    format: 'reward-lens.step-detector',
    version: 1,
    name,
    model: { hiddenSize: info.hiddenSize, numLayers: info.numLayers, vocabSize: info.vocabSize, recipe: prm.recipe.name, description: info.description },
    layer,
    lookahead,
    probe,
    threshold,
    heldOut: { precision: 0, recall: 0, f1: 0, boundaries: 0, solutions: 0, data: options.heldOutDescription },
  });
  const probeFor = (rows: FeatureRows, index: number) => fitProbe(rows.features[index]!, rows.labels, { positiveWeight: 'balanced', seed, ...options.probe });

  // Choosing the layer: rows of every candidate layer held at once, so at most maxSelectionValues values.
  const width = info.hiddenSize * (1 + lookahead);
  const selectionRows = Math.max(1, Math.min(maxTokens, Math.floor((options.maxSelectionValues ?? 50_000_000) / (width * layers.length))));
  const selection = await collectRows(prm, fitting, layers, lookahead, selectionRows);
  onEvent({ kind: 'features', split: 'fit', solutions: selection.solutions, tokens: selection.rows });
  const probes = layers.map((_, index) => probeFor(selection, index));
  selection.features.length = 0;
  const validated = await validateDetectors(
    prm,
    validation,
    layers.map((layer, index) => draft(layer, probes[index]!, 0.5)),
  );
  onEvent({ kind: 'features', split: 'validation', solutions: validation.length, tokens: validated.tokens });
  const perLayer = layers.map((layer, index) => {
    const entry = { layer, ...validated.best[index]! };
    onEvent({ kind: 'layer', ...entry });
    return entry;
  });
  const chosen = perLayer.reduce((best, candidate, index) => (candidate.validation.f1 > perLayer[best]!.validation.f1 ? index : best), 0);
  let kept = draft(layers[chosen]!, probes[chosen]!, perLayer[chosen]!.threshold);
  let fitted = { solutions: selection.solutions, tokens: selection.rows };

  // The chosen layer alone, refitted on up to maxTokens rows when choosing it used fewer.
  if (selection.rows === selectionRows && selectionRows < maxTokens) {
    const rows = await collectRows(prm, fitting, [kept.layer], lookahead, maxTokens);
    onEvent({ kind: 'features', split: 'fit', solutions: rows.solutions, tokens: rows.rows });
    const refitted = await validateDetectors(prm, validation, [draft(kept.layer, probeFor(rows, 0), 0.5)]);
    kept = { ...refitted.detectors[0]!, threshold: refitted.best[0]!.threshold };
    onEvent({ kind: 'layer', layer: kept.layer, ...refitted.best[0]! });
    fitted = { solutions: rows.solutions, tokens: rows.rows };
  }
  const { threshold } = kept;

  // Held out: the chosen layer and threshold, once.
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
      solutions: { fitted: fitted.solutions, validation: validation.length, skipped, heldOutSkipped },
      tokensFitted: fitted.tokens,
      tokensForChoosingTheLayer: selection.rows,
      seed,
      stepsJoinedWith: ' ',
      layers: perLayer.map((entry) => ({ layer: entry.layer, threshold: entry.threshold, validationF1: entry.validation.f1 })),
    },
  });
  return { detector, skipped: { data: skipped, heldOut: heldOutSkipped }, layers: perLayer, heldOut: metrics };
}
