import { createRandomDecoder, defineDecoderConfig, type DecoderConfig, type ForwardRequestV1, type ReadRequestV1, createSeededRandom } from '@reward-lens/spec';

import { afterAll, describe, expect, it } from 'vitest';
import { scalarKernels, type KernelSet } from '../kernels/kernel-set.js';
import { createWasmSimdKernels } from '../kernels/wasm/wasm-simd-kernels.js';
import { createRotaryTables } from '../model/rotary-embedding.js';
import { GradientEngine } from './gradient-engine.js';
import { float64Reads } from '../../test/support/float64-decoder.js';

/*
 * The gradient and the Hessian-vector product of a loss of the reads, against central finite
 * differences of a float64 decoder written separately (test-support/float64-decoder.ts), for
 * every parameter and input-embedding entry of small models (the HVP at up to 32 entries of each
 * tensor and every input-embedding entry), one test per head shape.
 * The loss is L = Σ a·r + ½ Σ b·r² over the reads r (random a, b), so the HVP includes the
 * loss's own curvature. Set GRADIENT_CHECK_REPORT=1 to print the errors.
 */

const tiedGqa = defineDecoderConfig({
  architecture: 'llama',
  hiddenSize: 8,
  numLayers: 2,
  numHeads: 2,
  numKvHeads: 1,
  intermediateSize: 12,
  vocabSize: 13,
  maxPositions: 16,
  ropeTheta: 10000,
  rmsNormEps: 1e-6,
  tieWordEmbeddings: true,
  attentionBias: false,
  heads: [
    { name: 'value', kind: 'value', weight: 'v_head.weight', bias: 'v_head.bias' },
    {
      name: 'classifier',
      kind: 'token-classification',
      numLabels: 3,
      weight: 'score.2.weight',
      bias: 'score.2.bias',
      hidden: { weight: 'score.0.weight', bias: 'score.0.bias' },
    },
    { name: 'lm', kind: 'lm' },
  ],
});

const untiedBiased = defineDecoderConfig({
  architecture: 'qwen2',
  hiddenSize: 8,
  numLayers: 2,
  numHeads: 2,
  numKvHeads: 2,
  intermediateSize: 12,
  vocabSize: 11,
  maxPositions: 16,
  ropeTheta: 1_000_000,
  rmsNormEps: 1e-6,
  tieWordEmbeddings: false,
  attentionBias: true,
  heads: [
    { name: 'value', kind: 'value', weight: 'v_head.2.weight', hidden: { weight: 'v_head.0.weight' } },
    { name: 'classifier', kind: 'token-classification', numLabels: 2, weight: 'score.weight' },
    { name: 'lm', kind: 'lm' },
  ],
});

/** Two rows: 5 tokens, and 3 tokens left-padded to 5. `reads` maps real positions per row to read requests. */
function twoRowRequest(config: DecoderConfig, reads: (positions: number[][]) => ReadRequestV1[]): ForwardRequestV1 {
  const ids = [3, 7, 1, 9, 4, 0, 0, 5, 2, 8].map((id) => id % config.vocabSize);
  return {
    batchSize: 2,
    sequenceLength: 5,
    inputIds: Int32Array.from(ids),
    attentionMask: Uint8Array.of(1, 1, 1, 1, 1, 0, 0, 1, 1, 1),
    reads: reads([
      [0, 1, 2, 3, 4],
      [2, 3, 4],
    ]),
  };
}

const pick = (positions: number[][], choose: (row: number[]) => number[]) => positions.map(choose);

interface Case {
  label: string;
  config: DecoderConfig;
  reads: (positions: number[][]) => ReadRequestV1[];
}

const cases: Case[] = [
  { label: 'value head with bias (llama, GQA, tied)', config: tiedGqa, reads: (p) => [{ kind: 'head', head: 'value', positions: p }] },
  {
    label: 'token-classification head with a ReLU hidden layer, biases (llama, GQA, tied)',
    config: tiedGqa,
    reads: (p) => [{ kind: 'head', head: 'classifier', positions: pick(p, (row) => [row[1]!, row[row.length - 1]!]) }],
  },
  {
    label: 'tied lm head, column reads (llama, GQA)',
    config: tiedGqa,
    reads: (p) => [{ kind: 'head', head: 'lm', positions: pick(p, (row) => row.slice(-2)), columns: [1, 4, 7] }],
  },
  {
    label: 'tied lm head, every column (llama, GQA)',
    config: tiedGqa,
    reads: (p) => [{ kind: 'head', head: 'lm', positions: pick(p, (row) => [row.at(-1)!]) }],
  },
  {
    label: 'inner-layer head read and hidden states at layers 0 and 1 (llama, GQA, tied)',
    config: tiedGqa,
    reads: (p) => [
      { kind: 'head', head: 'value', positions: p, layer: 1 },
      { kind: 'hidden', layer: 1, positions: pick(p, (row) => [row[0]!]) },
      { kind: 'hidden', layer: 0, positions: pick(p, (row) => [row.at(-1)!]) },
    ],
  },
  {
    label: 'value head with a ReLU hidden layer, no biases (qwen2, QKV bias, untied)',
    config: untiedBiased,
    reads: (p) => [{ kind: 'head', head: 'value', positions: p }],
  },
  {
    label: 'token-classification head without bias (qwen2, QKV bias, untied)',
    config: untiedBiased,
    reads: (p) => [{ kind: 'head', head: 'classifier', positions: p }],
  },
  {
    label: 'untied lm head, column reads, and an inner-layer classifier (qwen2, QKV bias)',
    config: untiedBiased,
    reads: (p) => [
      { kind: 'head', head: 'lm', positions: pick(p, (row) => row.slice(-2)), columns: [0, 10, 3] },
      { kind: 'head', head: 'classifier', positions: pick(p, (row) => [row[0]!]), layer: 1 },
    ],
  },
];

/** Every variable the checks perturb, as one float64 vector: each tensor, then each row's input-embedding offsets. */
interface Variables {
  values: Float64Array;
  /** name → [start, length]; rows' offsets after the tensors. */
  layout: Map<string, [number, number]>;
  offsetsStart: number;
  rowWidth: number;
  rows: number;
}

function variablesOf(tensors: ReadonlyMap<string, Float32Array>, rows: number, rowWidth: number): Variables {
  const layout = new Map<string, [number, number]>();
  let total = 0;
  for (const [name, tensor] of tensors) {
    layout.set(name, [total, tensor.length]);
    total += tensor.length;
  }
  const values = new Float64Array(total + rows * rowWidth);
  for (const [name, tensor] of tensors) values.set(tensor, layout.get(name)![0]);
  return { values, layout, offsetsStart: total, rowWidth, rows };
}

const relativeError = (actual: ArrayLike<number>, expected: ArrayLike<number>) => {
  let difference = 0;
  let magnitude = 0;
  for (let index = 0; index < expected.length; index++) {
    difference = Math.max(difference, Math.abs(actual[index]! - expected[index]!));
    magnitude = Math.max(magnitude, Math.abs(expected[index]!));
  }
  return difference / magnitude;
};

const report: string[] = [];
afterAll(() => {
  if (process.env.GRADIENT_CHECK_REPORT) console.log(`max |error| / max |finite difference|, per head shape:\n${report.join('\n')}`);
});

const kernelSets: [string, () => KernelSet][] = [
  ['wasm-simd', createWasmSimdKernels],
  ['scalar', () => scalarKernels],
];

describe.each(kernelSets)('gradients and HVPs on %s kernels against float64 central differences', (kernelName, createKernels) => {
  it.each(kernelName === 'scalar' ? cases.slice(1, 2) : cases)('$label', { timeout: 300_000 }, ({ label, config, reads }) => {
    const model = createRandomDecoder({ seed: 11, config });
    const request = twoRowRequest(config, reads);
    const random = createSeededRandom(5);
    const uniform = () => random() * 2 - 1;
    const engine = new GradientEngine(config, model.tensors, createKernels(), createRotaryTables(config.headDim, config.maxPositions, config.ropeTheta));

    // The loss's coefficients, shaped like the reads.
    const shapes = float64Reads(config, new Map([...model.tensors].map(([name, tensor]) => [name, Float64Array.from(tensor)])), request);
    const linear = shapes.map((perRow) => perRow.map((values) => Float64Array.from(values, uniform)));
    const quadratic = shapes.map((perRow) => perRow.map((values) => Float64Array.from(values, () => random())));
    const lossOf = (readValues: ArrayLike<number>[][]) => {
      let loss = 0;
      readValues.forEach((perRow, read) =>
        perRow.forEach((values, row) => {
          for (let index = 0; index < values.length; index++) {
            const value = values[index]!;
            loss += linear[read]![row]![index]! * value + 0.5 * quadratic[read]![row]![index]! * value * value;
          }
        }),
      );
      return loss;
    };

    const { hiddenSize } = config;
    const rowWidth = request.sequenceLength * hiddenSize;
    const variables = variablesOf(model.tensors, request.batchSize, rowWidth);
    const direction = Float64Array.from(variables.values, uniform);
    const tensorDirection = new Map(
      [...variables.layout].map(([name, [start, length]]) => [name, Float32Array.from(direction.subarray(start, start + length))]),
    );
    const rowDirections = Array.from({ length: request.batchSize }, (_, row) =>
      Float32Array.from(direction.subarray(variables.offsetsStart + row * rowWidth, variables.offsetsStart + (row + 1) * rowWidth)),
    );

    const pass = engine.hvp(
      request,
      (forwardReads) =>
        forwardReads.map((read, index) =>
          read.values.map((values, row) => values.map((value, at) => linear[index]![row]![at]! + quadratic[index]![row]![at]! * value)),
        ),
      { parameters: tensorDirection, inputEmbeddings: rowDirections },
      (_, tangents) => tangents.map((read, index) => read.values.map((values, row) => values.map((value, at) => quadratic[index]![row]![at]! * value))),
      { parameters: true, inputEmbeddings: true },
    );

    // The gradient-only pass (which runs the kernel set's fused attention backward, when it has one) gives the same gradient.
    const gradientOnly = engine.backward(
      request,
      (forwardReads) =>
        forwardReads.map((read, index) =>
          read.values.map((values, row) => values.map((value, at) => linear[index]![row]![at]! + quadratic[index]![row]![at]! * value)),
        ),
      { parameters: true, inputEmbeddings: true },
    );
    const expectSame = (actual: Float32Array, expected: Float32Array, label: string) => {
      const scale = expected.reduce((largest, value) => Math.max(largest, Math.abs(value)), 0);
      actual.forEach((value, index) => expect(Math.abs(value - expected[index]!), label).toBeLessThanOrEqual(1e-5 * scale));
    };
    for (const [name, values] of pass.gradients.parameters!) expectSame(gradientOnly.gradients.parameters!.get(name)!, values, name);
    pass.gradients.inputEmbeddings!.forEach((values, row) => expectSame(gradientOnly.gradients.inputEmbeddings![row]!, values, `input row ${row}`));

    // The forward part agrees with the float64 decoder.
    pass.reads.forEach((read, index) => read.values.forEach((values, row) => expect(relativeError(values, shapes[index]![row]!)).toBeLessThan(1e-5)));

    const evaluate = (point: Float64Array) => {
      const parameters = new Map([...variables.layout].map(([name, [start, length]]) => [name, point.subarray(start, start + length)]));
      const offsets = Array.from({ length: request.batchSize }, (_, row) =>
        point.subarray(variables.offsetsStart + row * rowWidth, variables.offsetsStart + (row + 1) * rowWidth),
      );
      return lossOf(float64Reads(config, parameters, request, offsets));
    };
    const count = variables.values.length;
    const point = variables.values.slice();
    const gradientStep = 1e-5;
    const hessianStep = 3e-5;
    const gradientDifferences = new Float64Array(count);
    const hvpDifferences = new Float64Array(count);
    // The HVP's differences cost four evaluations each: every input entry, and a sample of each tensor.
    const hvpChecked = new Uint8Array(count).fill(1);
    for (const [start, length] of variables.layout.values()) {
      if (length <= 32) continue;
      hvpChecked.fill(0, start, start + length);
      for (let pickIndex = 0; pickIndex < 32; pickIndex++) hvpChecked[start + Math.floor(random() * length)] = 1;
    }
    const shifted = (sign: number) => Float64Array.from(variables.values, (value, index) => value + sign * hessianStep * direction[index]!);
    const [plus, minus] = [shifted(1), shifted(-1)];
    for (let index = 0; index < count; index++) {
      const original = variables.values[index]!;
      point[index] = original + gradientStep;
      const up = evaluate(point);
      point[index] = original - gradientStep;
      const down = evaluate(point);
      point[index] = original;
      gradientDifferences[index] = (up - down) / (2 * gradientStep);
      if (hvpChecked[index] === 0) continue;
      const mixed = (base: Float64Array, sign: number) => {
        const saved = base[index]!;
        base[index] = saved + sign * hessianStep;
        const value = evaluate(base);
        base[index] = saved;
        return value;
      };
      hvpDifferences[index] = (mixed(plus, 1) - mixed(plus, -1) - mixed(minus, 1) + mixed(minus, -1)) / (4 * hessianStep * hessianStep);
    }

    const flatten = (blocks: { parameters?: ReadonlyMap<string, Float32Array>; inputEmbeddings?: readonly Float32Array[] }) => {
      const flat = new Float64Array(count);
      for (const [name, [start]] of variables.layout) flat.set(blocks.parameters!.get(name)!, start);
      blocks.inputEmbeddings!.forEach((row, index) => flat.set(row, variables.offsetsStart + index * rowWidth));
      return flat;
    };
    const gradient = flatten(pass.gradients);
    const hvp = flatten(pass.hvp).map((value, index) => (hvpChecked[index] === 1 ? value : 0));
    const split = (values: Float64Array) => [values.subarray(0, variables.offsetsStart), values.subarray(variables.offsetsStart)] as const;
    const [gradientParameters, gradientInputs] = split(gradient);
    const [hvpParameters, hvpInputs] = split(hvp);
    const errors = {
      gradientParameters: relativeError(gradientParameters, split(gradientDifferences)[0]),
      gradientInputs: relativeError(gradientInputs, split(gradientDifferences)[1]),
      hvpParameters: relativeError(hvpParameters, split(hvpDifferences)[0]),
      hvpInputs: relativeError(hvpInputs, split(hvpDifferences)[1]),
    };
    report.push(
      `  ${kernelName.padEnd(9)} ${label}: gradient ${errors.gradientParameters.toExponential(1)} (parameters) ${errors.gradientInputs.toExponential(1)} (inputs); ` +
        `HVP ${errors.hvpParameters.toExponential(1)} (parameters) ${errors.hvpInputs.toExponential(1)} (inputs); ${count} variables, HVP at ${hvpChecked.reduce((sum, flag) => sum + flag, 0)}`,
    );
    // float32 arithmetic against float64: a few parts in a million is typical.
    expect(errors.gradientParameters).toBeLessThan(1e-4);
    expect(errors.gradientInputs).toBeLessThan(1e-4);
    expect(errors.hvpParameters).toBeLessThan(1e-4);
    expect(errors.hvpInputs).toBeLessThan(1e-4);
  });
});
