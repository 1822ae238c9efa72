import { InvalidInputError, createSeededRandom } from '@reward-lens/spec';

import type { Probe, ProbeLayer } from './probe.js';

export interface FitProbeOptions {
  /** Hidden units of a one-hidden-layer MLP (ReLU); 0 (default) fits a linear probe (logistic regression). */
  hiddenUnits?: number;
  /** L2 penalty on the weights (not the biases), per row. Default 1e-3. */
  l2?: number;
  /** Passes over the rows. Default 30. */
  epochs?: number;
  /** Rows per Adam step. Default 256. */
  batchSize?: number;
  /** Adam's step size at the start, decayed linearly to a tenth of it. Default 1e-2 (linear), 3e-3 (MLP). */
  learningRate?: number;
  /** Seeds the initial weights and the order of the rows. Default 0. */
  seed?: number;
  /** Weight of a positive row's loss: a number, or `'balanced'` (negatives / positives) for rare positives. Default 1. */
  positiveWeight?: number | 'balanced';
}

/** Significant digits kept in a fitted probe: what is evaluated is exactly what is written to JSON. */
const keptDigits = 7;
const rounded = (values: ArrayLike<number>) => Array.from(values, (value) => Number(value.toPrecision(keptDigits)));

/**
 * Fits a probe (logistic regression, or a one-hidden-layer MLP) to rows of features and labels in
 * [0, 1] by minimising the (weighted) binary cross-entropy plus an L2 penalty with Adam, in
 * float64, deterministically for a seed. The features are standardised with their own mean and
 * scale, which the probe keeps.
 *
 * @example
 * const probe = fitProbe(features, labels, { positiveWeight: 'balanced' }); // features: labels.length rows
 * probeLogits(probe, features, labels.length);
 */
export function fitProbe(features: ArrayLike<number>, labels: ArrayLike<number>, options: FitProbeOptions = {}): Probe {
  const rows = labels.length;
  if (rows === 0 || features.length % rows !== 0 || features.length === 0) {
    throw new InvalidInputError(`features (${features.length} values) must hold a whole number of rows for ${rows} labels`);
  }
  const inputs = features.length / rows;
  for (let row = 0; row < rows; row++) {
    const label = labels[row]!;
    if (!(label >= 0 && label <= 1)) throw new InvalidInputError(`label ${row} must be in [0, 1], got ${label}`);
  }
  const hiddenUnits = options.hiddenUnits ?? 0;
  if (!Number.isInteger(hiddenUnits) || hiddenUnits < 0) throw new InvalidInputError(`hiddenUnits must be a non-negative integer, got ${hiddenUnits}`);
  const l2 = options.l2 ?? 1e-3;
  const epochs = options.epochs ?? 30;
  const batchSize = options.batchSize ?? 256;
  const learningRate = options.learningRate ?? (hiddenUnits > 0 ? 3e-3 : 1e-2);
  const random = createSeededRandom(options.seed ?? 0);

  let positives = 0;
  for (let row = 0; row < rows; row++) positives += labels[row]!;
  const positiveWeight = options.positiveWeight === 'balanced' ? (rows - positives) / Math.max(positives, 1e-9) : (options.positiveWeight ?? 1);

  // Standardisation: the training rows' mean and standard deviation (1 where a feature is constant).
  const mean = new Float64Array(inputs);
  const scale = new Float64Array(inputs);
  for (let row = 0; row < rows; row++)
    for (let feature = 0; feature < inputs; feature++) mean[feature] = mean[feature]! + features[row * inputs + feature]! / rows;
  for (let row = 0; row < rows; row++) {
    for (let feature = 0; feature < inputs; feature++) scale[feature] = scale[feature]! + (features[row * inputs + feature]! - mean[feature]!) ** 2 / rows;
  }
  for (let feature = 0; feature < inputs; feature++) scale[feature] = Math.sqrt(scale[feature]!) > 1e-8 ? Math.sqrt(scale[feature]!) : 1;
  const roundedMean = rounded(mean);
  const roundedScale = rounded(scale);

  const widths = hiddenUnits > 0 ? [inputs, hiddenUnits, 1] : [inputs, 1];
  const layers = widths.slice(1).map((outputs, index) => {
    const fanIn = widths[index]!;
    const weight = new Float64Array(outputs * fanIn);
    // He initialisation for a ReLU layer; the output layer of an MLP Glorot; a linear probe starts at zero.
    const spread = index < widths.length - 2 ? Math.sqrt(6 / fanIn) : hiddenUnits > 0 ? Math.sqrt(6 / (fanIn + outputs)) : 0;
    for (let entry = 0; entry < weight.length; entry++) weight[entry] = spread * (2 * random() - 1);
    return { inputs: fanIn, outputs, weight, bias: new Float64Array(outputs), relu: index < widths.length - 2 };
  });
  const baseRate = Math.min(Math.max(positives / rows, 1e-4), 1 - 1e-4);
  layers[layers.length - 1]!.bias[0] = Math.log((positiveWeight * baseRate) / (1 - baseRate));

  const parameters = layers.flatMap((layer) => [layer.weight, layer.bias]);
  const gradients = parameters.map((values) => new Float64Array(values.length));
  const firstMoments = parameters.map((values) => new Float64Array(values.length));
  const secondMoments = parameters.map((values) => new Float64Array(values.length));
  const [beta1, beta2, epsilon] = [0.9, 0.999, 1e-8];

  const order = Array.from({ length: rows }, (_, row) => row);
  const totalSteps = epochs * Math.ceil(rows / batchSize);
  const input = new Float64Array(inputs);
  const activations = layers.map((layer) => new Float64Array(layer.outputs));
  const deltas = layers.map((layer) => new Float64Array(layer.outputs));
  let step = 0;
  for (let epoch = 0; epoch < epochs; epoch++) {
    for (let index = rows - 1; index > 0; index--) {
      const other = Math.floor(random() * (index + 1));
      [order[index], order[other]] = [order[other]!, order[index]!];
    }
    for (let start = 0; start < rows; start += batchSize) {
      const batch = order.slice(start, start + batchSize);
      for (const gradient of gradients) gradient.fill(0);
      for (const row of batch) {
        for (let feature = 0; feature < inputs; feature++)
          input[feature] = (features[row * inputs + feature]! - roundedMean[feature]!) / roundedScale[feature]!;
        layers.forEach((layer, layerIndex) => {
          const source = layerIndex === 0 ? input : activations[layerIndex - 1]!;
          const output = activations[layerIndex]!;
          for (let unit = 0; unit < layer.outputs; unit++) {
            let sum = layer.bias[unit]!;
            for (let feature = 0; feature < layer.inputs; feature++) sum += layer.weight[unit * layer.inputs + feature]! * source[feature]!;
            output[unit] = layer.relu && sum < 0 ? 0 : sum;
          }
        });
        const logit = activations[layers.length - 1]![0]!;
        const probability = logit >= 0 ? 1 / (1 + Math.exp(-logit)) : Math.exp(logit) / (1 + Math.exp(logit));
        const label = labels[row]!;
        // d/dlogit of -(w₊·y·log p + (1-y)·log(1-p)).
        deltas[layers.length - 1]![0] = positiveWeight * label * (probability - 1) + (1 - label) * probability;
        for (let layerIndex = layers.length - 1; layerIndex >= 0; layerIndex--) {
          const layer = layers[layerIndex]!;
          const source = layerIndex === 0 ? input : activations[layerIndex - 1]!;
          const delta = deltas[layerIndex]!;
          const weightGradient = gradients[2 * layerIndex]!;
          const biasGradient = gradients[2 * layerIndex + 1]!;
          const below = layerIndex > 0 ? deltas[layerIndex - 1]!.fill(0) : undefined;
          for (let unit = 0; unit < layer.outputs; unit++) {
            const value = delta[unit]!;
            if (value === 0) continue;
            biasGradient[unit] = biasGradient[unit]! + value;
            const offset = unit * layer.inputs;
            for (let feature = 0; feature < layer.inputs; feature++) {
              weightGradient[offset + feature] = weightGradient[offset + feature]! + value * source[feature]!;
              if (below) below[feature] = below[feature]! + value * layer.weight[offset + feature]!;
            }
          }
          if (below) {
            const belowActivations = activations[layerIndex - 1]!;
            for (let unit = 0; unit < below.length; unit++) if (belowActivations[unit]! <= 0) below[unit] = 0;
          }
        }
      }
      step += 1;
      const rate = learningRate * (1 - (0.9 * (step - 1)) / Math.max(totalSteps - 1, 1));
      parameters.forEach((values, parameterIndex) => {
        const gradient = gradients[parameterIndex]!;
        const isWeight = parameterIndex % 2 === 0;
        const first = firstMoments[parameterIndex]!;
        const second = secondMoments[parameterIndex]!;
        for (let entry = 0; entry < values.length; entry++) {
          const value = gradient[entry]! / batch.length + (isWeight ? 2 * l2 * values[entry]! : 0);
          first[entry] = beta1 * first[entry]! + (1 - beta1) * value;
          second[entry] = beta2 * second[entry]! + (1 - beta2) * value * value;
          const firstHat = first[entry]! / (1 - beta1 ** step);
          const secondHat = second[entry]! / (1 - beta2 ** step);
          values[entry] = values[entry]! - (rate * firstHat) / (Math.sqrt(secondHat) + epsilon);
        }
      });
    }
  }
  return {
    format: 'reward-lens.probe',
    version: 1,
    inputs,
    standardize: { mean: roundedMean, scale: roundedScale },
    layers: layers.map(
      (layer): ProbeLayer => ({
        inputs: layer.inputs,
        outputs: layer.outputs,
        weight: rounded(layer.weight),
        bias: rounded(layer.bias),
        activation: layer.relu ? 'relu' : 'none',
      }),
    ),
  };
}
