import {
  type BackendV1,
  type BackwardRequestV1,
  Capability,
  createSeededRandom,
  type DecoderConfig,
  type DecoderModel,
  type ForwardRequestV1,
  type ReadGradientsV1,
  type ReadResultV1,
} from '@reward-lens/spec';
import { ProcessRM } from '../process-rm/process-rm.js';
import { createByteBpeTokenizer } from '@reward-lens/tokenizers';
import { conformancePairs } from './conformance-fixtures.js';
import { check, checkAtMost, checkBelow, checkEqual, checkRejects, checkWithin } from './conformance-assert.js';
import type { GradientTest } from './gradient-test.js';
import { differenceTolerance, dot, relativeMapError, shifted, unitDirection, valueBatch } from './gradient-conformance-math.js';

/** The HVP tests of the gradient suite, and the ProcessRM-level ones (causal step gradients, the score's HVP), on one model. */
export interface HvpTestContext {
  test: GradientTest;
  /** Runs `use` on a fresh backend for `model`, disposed after. */
  withBackend: <Result>(model: DecoderModel, use: (backend: BackendV1) => Promise<Result>) => Promise<Result>;
  model: DecoderModel;
  config: DecoderConfig;
  rows: Int32Array[];
  weights: Float32Array[];
}

export function defineHvpTests({ test, withBackend, model, config, rows, weights }: HvpTestContext): void {
  const step = 1e-2;
  /** Checks an HVP against central differences of `doBackward`'s gradient along `direction`, on weights moved by ± step. */
  const checkHvpByDifferences = async (
    backend: BackendV1,
    request: ForwardRequestV1,
    readGradients: BackwardRequestV1['readGradients'],
    direction: ReadonlyMap<string, Float32Array>,
    hvp: ReadonlyMap<string, Float32Array>,
  ): Promise<void> => {
    const gradientAt = (sign: number) =>
      withBackend(shifted(model, direction, sign * step), async (moved) => (await moved.doBackward!({ ...request, readGradients })).parameters!);
    const [plus, minus] = [await gradientAt(1), await gradientAt(-1)];
    const difference = new Map(
      [...plus].map(([name, values]) => [name, Float64Array.from(values, (value, index) => (value - minus.get(name)![index]!) / (2 * step))]),
    );
    checkBelow(relativeMapError(hvp, difference), differenceTolerance(backend.precision) * 5, 'hvp vs central differences of the gradient: relative error');
  };

  test('hvp matches finite differences of the gradient', 'HVP', model, async (backend) => {
    const request = valueBatch(rows, 'right');
    const direction = unitDirection(model, 5);
    const result = await backend.doHvp!({ ...request, readGradients: [weights], direction: { parameters: direction } });
    checkBelow(
      relativeMapError(result.parameters!, (await backend.doBackward!({ ...request, readGradients: [weights] })).parameters!),
      1e-5,
      "doHvp's gradient vs doBackward's: relative error",
    );
    await checkHvpByDifferences(backend, request, [weights], direction, result.hvp.parameters!);
  });

  test('hvp is symmetric', 'HVP', model, async (backend) => {
    const request = valueBatch(rows, 'right');
    const [u, v] = [unitDirection(model, 6), unitDirection(model, 7)];
    const hu = (await backend.doHvp!({ ...request, readGradients: [weights], direction: { parameters: u } })).hvp.parameters!;
    const hv = (await backend.doHvp!({ ...request, readGradients: [weights], direction: { parameters: v } })).hvp.parameters!;
    const [uHv, vHu] = [dot(u, hv), dot(v, hu)];
    checkAtMost(Math.abs(uHv - vHu), 1e-3 * Math.max(Math.abs(uHv), 1e-3), `|u·Hv - v·Hu| (u·Hv ${uHv}, v·Hu ${vHu})`);
  });

  test('hvp carries the loss curvature', 'HVP', model, async (backend) => {
    // L = Σ a·r + ½ Σ r²: its gradient in the reads is a + r, its curvature the identity.
    const request = valueBatch(rows, 'right');
    const seeds = (reads: readonly ReadResultV1[]): ReadGradientsV1 => [
      reads[0]!.values.map((values, row) => values.map((value, index) => weights[row]![index]! + value)),
    ];
    const direction = unitDirection(model, 8);
    const result = await backend.doHvp!({
      ...request,
      readGradients: seeds,
      direction: { parameters: direction },
      readHessianProduct: (_, tangents) => [tangents[0]!.values.map((values) => values.slice())],
    });
    await checkHvpByDifferences(backend, request, seeds, direction, result.hvp.parameters!);
    // The reads' tangents are J·v: a directional derivative of the reads.
    const readsAt = (sign: number) => withBackend(shifted(model, direction, sign * step), async (moved) => (await moved.doForward(request)).reads[0]!.values);
    const [up, down] = [await readsAt(1), await readsAt(-1)];
    result.readTangents[0]!.values.forEach((values, row) => {
      const expected = values.map((_, index) => (up[row]![index]! - down[row]![index]!) / (2 * step));
      const scale = Math.max(...expected.map(Math.abs));
      checkWithin(values, expected, differenceTolerance(backend.precision) * scale, `read tangents of row ${row} vs central differences of the reads`);
    });
  });

  test('step gradients are causal', 'GRADIENTS', model, async (backend) => {
    const prm = ProcessRM.fromBackend(backend, createByteBpeTokenizer());
    const pair = conformancePairs[0]!;
    const scores = (await prm.stepScores([pair])).value.curves[0]!;
    const { value } = await prm.stepGradients([pair], { output: 'vector' });
    const explained = value.pairs[0]!;
    checkEqual(
      explained.steps.map((step) => step.step),
      [0, 1, 2],
      'explained steps',
    );
    checkEqual(value.hiddenSize, config.hiddenSize, 'hiddenSize');
    for (const step of explained.steps) {
      const what = `step ${step.step}`;
      checkAtMost(Math.abs(step.score - scores[step.step]!), 1e-4 * Math.max(1, Math.abs(scores[step.step]!)), `${what}: |score - stepScores'|`);
      checkEqual(step.norms.length, explained.inputIds.length, `${what}: norms length`);
      for (let token = step.readTokenIndex + 1; token < step.norms.length; token++)
        checkEqual(step.norms[token], 0, `${what}: norm of token ${token} after the read`);
      check(step.norms[step.readTokenIndex]! > 0, `${what}: norm at the read token is ${step.norms[step.readTokenIndex]}, expected above 0`);
      checkEqual(step.vectors?.length, explained.inputIds.length * config.hiddenSize, `${what}: vectors length`);
      if ((backend.capabilities & Capability.ACTIVATIONS) !== 0)
        check(step.gradientTimesInput.every(Number.isFinite), `${what}: gradientTimesInput is not all finite`);
    }
    const only = await prm.stepGradients([pair], { steps: [1] });
    checkEqual(
      only.value.pairs[0]!.steps.map((step) => step.step),
      [1],
      'steps: [1] explains step 1 only',
    );
    checkEqual(only.value.pairs[0]!.steps[0]!.norms, explained.steps[1]!.norms, 'step 1 explained alone vs with the others: norms');
  });

  test('score hvp', 'HVP', model, async (backend) => {
    const prm = ProcessRM.fromBackend(backend, createByteBpeTokenizer());
    const pair = conformancePairs[0]!;
    const length = prm.tokenize(pair).inputIds.length;
    const random = createSeededRandom(12);
    const direction = () => Float32Array.from({ length: length * config.hiddenSize }, () => random() * 2 - 1);
    const [u, v] = [direction(), direction()];
    const hu = (await prm.hvp(pair, { direction: { inputEmbeddings: u }, wrt: { parameters: false } })).value;
    const hv = (await prm.hvp(pair, { direction: { inputEmbeddings: v } })).value;
    checkEqual(hv.step, 2, 'hvp step (default: the last)');
    check(hv.gradient.parameters !== undefined, 'hvp: parameter gradients expected by default');
    check(hu.gradient.parameters === undefined, 'hvp with wrt.parameters false: no parameter gradients expected');
    const vectors = (await prm.stepGradients([pair], { output: 'vector', steps: [2] })).value.pairs[0]!.steps[0]!.vectors!;
    const scale = Math.max(...vectors.map(Math.abs));
    checkWithin(hv.gradient.inputEmbeddings!, vectors, 1e-4 * scale, "hvp's input-embedding gradient vs stepGradients' vectors");
    const uHv = u.reduce((sum, value, index) => sum + value * hv.hvp.inputEmbeddings![index]!, 0);
    const vHu = v.reduce((sum, value, index) => sum + value * hu.hvp.inputEmbeddings![index]!, 0);
    checkAtMost(Math.abs(uHv - vHu), 1e-3 * Math.max(Math.abs(uHv), 1e-6), `|u·Hv - v·Hu| (u·Hv ${uHv}, v·Hu ${vHu})`);
    await checkRejects(prm.hvp(pair, { step: 7, direction: {} }), { code: 'INVALID_INPUT' }, 'hvp at a step that does not exist');
  });
}
