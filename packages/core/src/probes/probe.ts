import { InvalidInputError } from '@reward-lens/spec';

/** One dense layer of a probe: `activation(weight · x + bias)`, `weight` row-major `[outputs, inputs]`. */
export interface ProbeLayer {
  inputs: number;
  outputs: number;
  weight: number[];
  bias: number[];
  activation: 'relu' | 'none';
}

/**
 * A small classifier over a model's hidden states, as plain data (JSON): features standardised
 * with the training rows' mean and scale, then dense layers, the last giving one logit. A linear
 * probe has one layer; a small MLP two. Fit one with `fitProbe`; apply it with `probeLogits`.
 */
export interface Probe {
  format: 'reward-lens.probe';
  version: 1;
  /** Features per row. */
  inputs: number;
  /** Per feature, `(x - mean) / scale` before the first layer. */
  standardize: { mean: number[]; scale: number[] };
  layers: ProbeLayer[];
}

function fail(message: string, location: string): never {
  throw new InvalidInputError(message, { location });
}

function finiteList(value: unknown, length: number, where: string, location: string): number[] {
  if (!Array.isArray(value) || value.length !== length) fail(`${where} must be an array of ${length} numbers`, location);
  for (let index = 0; index < value.length; index++) {
    if (typeof value[index] !== 'number' || !Number.isFinite(value[index])) fail(`${where}[${index}] must be a finite number`, location);
  }
  return value as number[];
}

/** Checks a parsed JSON value is a probe this version applies; throws `InvalidInputError` naming the field. */
export function validateProbe(value: unknown, location = 'probe'): Probe {
  if (typeof value !== 'object' || value === null) fail('a probe must be an object', location);
  const record = value as Record<string, unknown>;
  if (record.format !== 'reward-lens.probe') fail(`format must be "reward-lens.probe", got ${JSON.stringify(record.format)}`, location);
  if (record.version !== 1) fail(`version ${JSON.stringify(record.version)} is not supported (this version reads 1)`, location);
  const inputs = record.inputs;
  if (!Number.isInteger(inputs) || (inputs as number) < 1) fail('inputs must be a positive integer', location);
  const standardize = (record.standardize ?? {}) as Record<string, unknown>;
  const mean = finiteList(standardize.mean, inputs as number, 'standardize.mean', location);
  const scale = finiteList(standardize.scale, inputs as number, 'standardize.scale', location);
  if (scale.some((entry) => entry <= 0)) fail('standardize.scale must be positive', location);
  if (!Array.isArray(record.layers) || record.layers.length === 0) fail('layers must be a non-empty array', location);
  let width = inputs as number;
  const layers = (record.layers as unknown[]).map((entry, index): ProbeLayer => {
    const layer = (entry ?? {}) as Record<string, unknown>;
    const where = `layers[${index}]`;
    if (layer.inputs !== width) fail(`${where}.inputs must be ${width} (the width before it), got ${JSON.stringify(layer.inputs)}`, location);
    if (!Number.isInteger(layer.outputs) || (layer.outputs as number) < 1) fail(`${where}.outputs must be a positive integer`, location);
    if (layer.activation !== 'relu' && layer.activation !== 'none') fail(`${where}.activation must be "relu" or "none"`, location);
    const outputs = layer.outputs as number;
    const checked: ProbeLayer = {
      inputs: width,
      outputs,
      weight: finiteList(layer.weight, outputs * width, `${where}.weight`, location),
      bias: finiteList(layer.bias, outputs, `${where}.bias`, location),
      activation: layer.activation,
    };
    width = outputs;
    return checked;
  });
  if (width !== 1) fail(`the last layer must give one logit, it gives ${width}`, location);
  if (layers[layers.length - 1]!.activation !== 'none') fail('the last layer gives a logit: its activation must be "none"', location);
  return { format: 'reward-lens.probe', version: 1, inputs: inputs as number, standardize: { mean, scale }, layers };
}

/** `linear probe` or `MLP probe (32 hidden units)`: how notes name it. */
export function describeProbe(probe: Probe): string {
  if (probe.layers.length === 1) return 'linear probe';
  return `MLP probe (${probe.layers
    .slice(0, -1)
    .map((layer) => layer.outputs)
    .join('-')} hidden units)`;
}

/**
 * The probe's logit for each row of `features` (`rows × probe.inputs`, row-major), in float64.
 *
 * @example
 * const logits = probeLogits(probe, features, features.length / probe.inputs);
 * const probabilities = Array.from(logits, sigmoid);
 */
export function probeLogits(probe: Probe, features: ArrayLike<number>, rows: number): Float64Array {
  if (features.length !== rows * probe.inputs) {
    throw new InvalidInputError(`expected ${rows} rows of ${probe.inputs} features (${rows * probe.inputs} values), got ${features.length}`);
  }
  const { mean, scale } = probe.standardize;
  const logits = new Float64Array(rows);
  const input = new Float64Array(probe.inputs);
  for (let row = 0; row < rows; row++) {
    for (let feature = 0; feature < probe.inputs; feature++) input[feature] = (features[row * probe.inputs + feature]! - mean[feature]!) / scale[feature]!;
    let current: Float64Array = input;
    for (const layer of probe.layers) {
      const output = new Float64Array(layer.outputs);
      for (let unit = 0; unit < layer.outputs; unit++) {
        let sum = layer.bias[unit]!;
        const offset = unit * layer.inputs;
        for (let index = 0; index < layer.inputs; index++) sum += layer.weight[offset + index]! * current[index]!;
        output[unit] = layer.activation === 'relu' && sum < 0 ? 0 : sum;
      }
      current = output;
    }
    logits[row] = current[0]!;
  }
  return logits;
}

export function sigmoid(value: number): number {
  return value >= 0 ? 1 / (1 + Math.exp(-value)) : Math.exp(value) / (1 + Math.exp(value));
}
