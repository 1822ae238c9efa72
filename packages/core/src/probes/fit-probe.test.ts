import { describe, expect, it } from 'vitest';
import { createSeededRandom } from '@reward-lens/spec';
import { fitProbe } from './fit-probe.js';
import { describeProbe, probeLogits, sigmoid, validateProbe } from './probe.js';

/** Rows of `inputs` features and labels drawn from a known logistic model (plus Gaussian-ish noise in the features). */
function logisticData(rows: number, inputs: number, seed: number) {
  const random = createSeededRandom(seed);
  const truth = Array.from({ length: inputs }, (_, index) => (index % 2 === 0 ? 1.5 : -1) / (index + 1));
  const features = new Float64Array(rows * inputs);
  const labels = new Float64Array(rows);
  for (let row = 0; row < rows; row++) {
    let logit = 0.3;
    for (let feature = 0; feature < inputs; feature++) {
      const value = 3 * (random() + random() + random() - 1.5) + feature;
      features[row * inputs + feature] = value;
      logit += truth[feature]! * (value - feature);
    }
    labels[row] = random() < sigmoid(logit) ? 1 : 0;
  }
  return { features, labels, inputs };
}

/**
 * The penalised logistic loss minimised by Newton's method on the standardised features, written
 * apart from fitProbe (an independent optimiser for the same objective).
 */
function newtonOptimum(features: Float64Array, labels: Float64Array, inputs: number, l2: number, mean: number[], scale: number[]): number {
  const rows = labels.length;
  const x = (row: number, feature: number) => (feature === inputs ? 1 : (features[row * inputs + feature]! - mean[feature]!) / scale[feature]!);
  const size = inputs + 1;
  const weights = new Float64Array(size);
  const objective = () => {
    let total = 0;
    for (let row = 0; row < rows; row++) {
      let logit = 0;
      for (let feature = 0; feature < size; feature++) logit += weights[feature]! * x(row, feature);
      total += Math.log1p(Math.exp(-Math.abs(logit))) + Math.max(logit, 0) - labels[row]! * logit;
    }
    let penalty = 0;
    for (let feature = 0; feature < inputs; feature++) penalty += weights[feature]! ** 2;
    return total / rows + l2 * penalty;
  };
  for (let iteration = 0; iteration < 50; iteration++) {
    const gradient = new Float64Array(size);
    const hessian = Array.from({ length: size }, () => new Float64Array(size));
    for (let row = 0; row < rows; row++) {
      let logit = 0;
      for (let feature = 0; feature < size; feature++) logit += weights[feature]! * x(row, feature);
      const p = sigmoid(logit);
      for (let a = 0; a < size; a++) {
        gradient[a] = gradient[a]! + ((p - labels[row]!) * x(row, a)) / rows;
        for (let b = 0; b < size; b++) hessian[a]![b] = hessian[a]![b]! + (p * (1 - p) * x(row, a) * x(row, b)) / rows;
      }
    }
    for (let a = 0; a < inputs; a++) {
      gradient[a] = gradient[a]! + 2 * l2 * weights[a]!;
      hessian[a]![a] = hessian[a]![a]! + 2 * l2;
    }
    // Solve hessian · step = gradient by Gaussian elimination.
    const matrix = hessian.map((row, index) => [...row, gradient[index]!]);
    for (let pivot = 0; pivot < size; pivot++) {
      for (let row = pivot + 1; row < size; row++) {
        const factor = matrix[row]![pivot]! / matrix[pivot]![pivot]!;
        for (let column = pivot; column <= size; column++) matrix[row]![column] = matrix[row]![column]! - factor * matrix[pivot]![column]!;
      }
    }
    const step = new Float64Array(size);
    for (let row = size - 1; row >= 0; row--) {
      let value = matrix[row]![size]!;
      for (let column = row + 1; column < size; column++) value -= matrix[row]![column]! * step[column]!;
      step[row] = value / matrix[row]![row]!;
    }
    for (let feature = 0; feature < size; feature++) weights[feature] = weights[feature]! - step[feature]!;
  }
  return objective();
}

function probeObjective(probe: ReturnType<typeof fitProbe>, features: Float64Array, labels: Float64Array, l2: number): number {
  const logits = probeLogits(probe, features, labels.length);
  let total = 0;
  logits.forEach((logit, row) => {
    total += Math.log1p(Math.exp(-Math.abs(logit))) + Math.max(logit, 0) - labels[row]! * logit;
  });
  const weights = probe.layers[0]!.weight;
  return total / labels.length + l2 * weights.reduce((sum, weight) => sum + weight * weight, 0);
}

describe('fitProbe', () => {
  it('reaches the penalised logistic optimum that Newton’s method finds on the same objective', () => {
    const { features, labels, inputs } = logisticData(600, 4, 1);
    const l2 = 1e-2;
    const probe = fitProbe(features, labels, { l2, epochs: 60, batchSize: 64, learningRate: 3e-2, seed: 2 });
    expect(probe.layers).toHaveLength(1);
    expect(describeProbe(probe)).toBe('linear probe');
    const optimum = newtonOptimum(features, labels, inputs, l2, probe.standardize.mean, probe.standardize.scale);
    const reached = probeObjective(probe, features, labels, l2);
    expect(reached).toBeGreaterThanOrEqual(optimum - 1e-9);
    expect(reached - optimum).toBeLessThan(2e-3);
    // The standardisation is the rows' own mean and (population) standard deviation.
    const mean0 = Array.from({ length: labels.length }, (_, row) => features[row * inputs]!).reduce((sum, value) => sum + value, 0) / labels.length;
    expect(probe.standardize.mean[0]).toBeCloseTo(mean0, 5);
  });

  it('fits what a linear probe cannot (XOR of two features) with a small MLP, deterministically for a seed', () => {
    const random = createSeededRandom(5);
    const rows = 800;
    const features = new Float64Array(rows * 2);
    const labels = new Float64Array(rows);
    for (let row = 0; row < rows; row++) {
      const [a, b] = [random() * 2 - 1, random() * 2 - 1];
      features.set([a, b], row * 2);
      labels[row] = a * b > 0 ? 1 : 0;
    }
    const accuracy = (probe: ReturnType<typeof fitProbe>) =>
      [...probeLogits(probe, features, rows)].filter((logit, row) => (logit > 0 ? 1 : 0) === labels[row]).length / rows;
    const linear = fitProbe(features, labels, { epochs: 40 });
    const mlp = fitProbe(features, labels, { hiddenUnits: 16, epochs: 150, batchSize: 32, learningRate: 1e-2, seed: 3 });
    expect(accuracy(linear)).toBeLessThan(0.65);
    expect(accuracy(mlp)).toBeGreaterThan(0.95);
    expect(describeProbe(mlp)).toBe('MLP probe (16 hidden units)');
    expect(fitProbe(features, labels, { hiddenUnits: 16, epochs: 3, seed: 3 })).toEqual(fitProbe(features, labels, { hiddenUnits: 16, epochs: 3, seed: 3 }));
  });

  it('weights rare positives with positiveWeight: balanced, raising their recall', () => {
    const random = createSeededRandom(8);
    const rows = 1000;
    const features = new Float64Array(rows);
    const labels = new Float64Array(rows);
    for (let row = 0; row < rows; row++) {
      labels[row] = random() < 0.05 ? 1 : 0;
      features[row] = labels[row]! + 1.2 * (random() + random() + random() - 1.5);
    }
    const recall = (probe: ReturnType<typeof fitProbe>) => {
      const logits = probeLogits(probe, features, rows);
      const positives = [...labels.keys()].filter((row) => labels[row] === 1);
      return positives.filter((row) => logits[row]! > 0).length / positives.length;
    };
    expect(recall(fitProbe(features, labels, { positiveWeight: 'balanced' }))).toBeGreaterThan(recall(fitProbe(features, labels)) + 0.2);
  });

  it('refuses rows that do not match the labels and labels outside [0, 1]', () => {
    expect(() => fitProbe(new Float32Array(5), [0, 1])).toThrow(/whole number of rows/);
    expect(() => fitProbe(new Float32Array(4), [0, 2])).toThrow(/label 1 must be in \[0, 1\]/);
  });
});

describe('validateProbe and probeLogits', () => {
  const probe = fitProbe(Float32Array.of(0, 1, 2, 3, 1, 0, 3, 2), [0, 1, 0, 1], { hiddenUnits: 3, epochs: 2 });

  it('round-trips through JSON and computes the layers as written', () => {
    const again = validateProbe(JSON.parse(JSON.stringify(probe)));
    expect(again).toEqual(probe);
    const row = [0.5, 2.5];
    const standardized = row.map((value, index) => (value - probe.standardize.mean[index]!) / probe.standardize.scale[index]!);
    const [hidden, output] = probe.layers;
    const activations = Array.from({ length: 3 }, (_, unit) =>
      Math.max(0, hidden!.bias[unit]! + standardized.reduce((sum, value, index) => sum + hidden!.weight[unit * 2 + index]! * value, 0)),
    );
    const expected = output!.bias[0]! + activations.reduce((sum, value, unit) => sum + output!.weight[unit]! * value, 0);
    expect(probeLogits(again, row, 1)[0]).toBeCloseTo(expected, 12);
  });

  it('names the field that is wrong', () => {
    const broken = (change: (copy: Record<string, unknown>) => void) => {
      const copy = JSON.parse(JSON.stringify(probe));
      change(copy);
      return () => validateProbe(copy);
    };
    expect(broken((copy) => (copy.format = 'x'))).toThrow(/format must be "reward-lens.probe"/);
    expect(broken((copy) => ((copy.layers as { weight: number[] }[])[0]!.weight = [1]))).toThrow(/layers\[0\]\.weight must be an array of 6 numbers/);
    expect(broken((copy) => ((copy.layers as { inputs: number }[])[1]!.inputs = 2))).toThrow(/layers\[1\]\.inputs must be 3/);
    expect(broken((copy) => ((copy.standardize as { scale: number[] }).scale = [1, 0]))).toThrow(/scale must be positive/);
    expect(broken((copy) => ((copy.layers as { bias: unknown[] }[])[0]!.bias[1] = null))).toThrow(/bias\[1\] must be a finite number/);
    expect(() => probeLogits(probe, [1, 2, 3], 1)).toThrow(/expected 1 rows of 2 features/);
  });
});
