import { type ModelInfoV1, InvalidInputError } from '@reward-lens/spec';

import { describeProbe, validateProbe, type Probe } from '../probes/probe.js';
import { recipePresets } from '../recipes/presets.js';
import type { ReadingRecipe } from '../recipes/reading-recipe.js';

/** The file a model folder keeps its step-boundary detector in (`ProcessRM.fromPretrained` reads it). */
export const stepDetectorFileName = 'step-detector.json';

/** How a detector did on solutions it was not fitted on: boundaries are compared token by token. */
export interface StepDetectorHeldOut {
  precision: number;
  recall: number;
  f1: number;
  /** Labelled boundaries (delimiters removed) in the held-out solutions. */
  boundaries: number;
  solutions: number;
  /** What the held-out solutions were, e.g. `organism seed 1, 400 items, steps joined with spaces`. */
  data: string;
}

/**
 * A learned step-boundary detector as plain data (JSON), shipped beside a model's weights as
 * `step-detector.json`: a probe over the PRM's own hidden states after `layer` layers, read at
 * every token of a solution (and at the next token with `lookahead: 1`), giving the probability
 * that a step ends after that token. It belongs to one model and one reading recipe (the layout
 * decides the hidden states), which `model` records and `stepDetectorMismatch` checks.
 */
export interface StepDetector {
  format: 'reward-lens.step-detector';
  version: 1;
  name: string;
  model: { hiddenSize: number; numLayers: number; vocabSize: number; recipe: string; description?: string };
  /** Hidden state read: 0 = embeddings, k = after decoder layer k (before the final norm). */
  layer: number;
  /** 1: the features of token t are its hidden state and the next token's (which has seen token t+1); 0: its own only. */
  lookahead: 0 | 1;
  probe: Probe;
  /** A step ends after a token whose probability is at least this. */
  threshold: number;
  heldOut: StepDetectorHeldOut;
  /** How it was fitted (free-form: data, sizes, seed, the layers tried). */
  training?: Record<string, unknown>;
}

function fail(message: string, location: string): never {
  throw new InvalidInputError(message, { location });
}

function fraction(value: unknown, where: string, location: string): number {
  if (typeof value !== 'number' || !(value >= 0 && value <= 1)) fail(`${where} must be a number in [0, 1]`, location);
  return value;
}

function count(value: unknown, where: string, location: string): number {
  if (!Number.isInteger(value) || (value as number) < 0) fail(`${where} must be a non-negative integer`, location);
  return value as number;
}

/** Checks a parsed JSON value is a step detector this version applies; throws `InvalidInputError` naming the field. */
export function validateStepDetector(value: unknown, location = 'step detector'): StepDetector {
  if (typeof value !== 'object' || value === null) fail('a step detector must be an object', location);
  const record = value as Record<string, unknown>;
  if (record.format !== 'reward-lens.step-detector') fail(`format must be "reward-lens.step-detector", got ${JSON.stringify(record.format)}`, location);
  if (record.version !== 1) fail(`version ${JSON.stringify(record.version)} is not supported (this version reads 1)`, location);
  if (typeof record.name !== 'string' || record.name.trim() === '') fail('name must be a non-empty string', location);
  const model = (record.model ?? {}) as Record<string, unknown>;
  const hiddenSize = count(model.hiddenSize, 'model.hiddenSize', location);
  const numLayers = count(model.numLayers, 'model.numLayers', location);
  const vocabSize = count(model.vocabSize, 'model.vocabSize', location);
  if (typeof model.recipe !== 'string' || model.recipe === '') fail('model.recipe must name the reading recipe it was fitted with', location);
  const layer = count(record.layer, 'layer', location);
  if (layer > numLayers) fail(`layer ${layer} is past the model's ${numLayers} layers`, location);
  if (record.lookahead !== 0 && record.lookahead !== 1) fail('lookahead must be 0 or 1', location);
  const lookahead = record.lookahead as 0 | 1;
  const probe = validateProbe(record.probe, `${location}: probe`);
  if (probe.inputs !== hiddenSize * (1 + lookahead)) {
    fail(`the probe reads ${probe.inputs} features; hidden size ${hiddenSize} with lookahead ${lookahead} gives ${hiddenSize * (1 + lookahead)}`, location);
  }
  const threshold = record.threshold;
  if (typeof threshold !== 'number' || !(threshold > 0 && threshold < 1)) fail('threshold must be a probability strictly between 0 and 1', location);
  const heldOut = (record.heldOut ?? {}) as Record<string, unknown>;
  if (typeof heldOut.data !== 'string' || heldOut.data === '') fail('heldOut.data must say what the held-out solutions were', location);
  const detector: StepDetector = {
    format: 'reward-lens.step-detector',
    version: 1,
    name: record.name,
    model: {
      hiddenSize,
      numLayers,
      vocabSize,
      recipe: model.recipe,
      ...(typeof model.description === 'string' ? { description: model.description } : {}),
    },
    layer,
    lookahead,
    probe,
    threshold,
    heldOut: {
      precision: fraction(heldOut.precision, 'heldOut.precision', location),
      recall: fraction(heldOut.recall, 'heldOut.recall', location),
      f1: fraction(heldOut.f1, 'heldOut.f1', location),
      boundaries: count(heldOut.boundaries, 'heldOut.boundaries', location),
      solutions: count(heldOut.solutions, 'heldOut.solutions', location),
      data: heldOut.data,
    },
  };
  if (record.training !== undefined) {
    if (typeof record.training !== 'object' || record.training === null) fail('training must be an object', location);
    detector.training = record.training as Record<string, unknown>;
  }
  return detector;
}

/** Why this detector cannot read this model with this recipe, or null when it can. */
export function stepDetectorMismatch(detector: StepDetector, info: ModelInfoV1, recipe: ReadingRecipe): string | null {
  const { model } = detector;
  const differences: string[] = [];
  if (model.hiddenSize !== info.hiddenSize) differences.push(`hidden size ${model.hiddenSize}, the model's is ${info.hiddenSize}`);
  if (model.numLayers !== info.numLayers) differences.push(`${model.numLayers} layers, the model has ${info.numLayers}`);
  if (model.vocabSize !== info.vocabSize) differences.push(`vocabulary ${model.vocabSize}, the model's is ${info.vocabSize}`);
  if (model.recipe !== recipe.name && !sameLayout(recipePresets[model.recipe], recipe)) {
    differences.push(`recipe "${model.recipe}", the model is read with "${recipe.name}"`);
  }
  return differences.length === 0 ? null : `step detector "${detector.name}" was fitted for ${differences.join('; ')}`;
}

/**
 * Two recipes lay a solution out alike (template, tokenization, BOS): a detector reads hidden
 * states of the laid-out text, so one fitted under either serves both, however their heads are read.
 */
function sameLayout(fitted: ReadingRecipe | undefined, recipe: ReadingRecipe): boolean {
  if (fitted === undefined || !Object.hasOwn(recipePresets, fitted.name)) return false;
  return JSON.stringify([fitted.template, fitted.tokenization, fitted.addBos]) === JSON.stringify([recipe.template, recipe.tokenization, recipe.addBos]);
}

const threeDigits = (value: number) => value.toFixed(3);

/** How notes name a detector: its probe, layer, threshold and held-out figures. */
export function describeStepDetector(detector: StepDetector): string {
  const { heldOut } = detector;
  return (
    `learned step-boundary detector "${detector.name}" (${describeProbe(detector.probe)} on layer ${detector.layer}` +
    `${detector.lookahead ? ' with one token of lookahead' : ''}, threshold ${threeDigits(detector.threshold)}; held-out precision ` +
    `${threeDigits(heldOut.precision)}, recall ${threeDigits(heldOut.recall)}, F1 ${threeDigits(heldOut.f1)} on ${heldOut.boundaries} boundaries ` +
    `of ${heldOut.solutions} solutions: ${heldOut.data})`
  );
}
