import {
  type BackendV1,
  type ForwardRequestV1,
  type ReadGradientsV1,
  type ReadResultV1,
  Capability,
  InvalidInputError,
  type DecoderModel,
  createRandomDecoder,
  createSeededRandom,
} from '@reward-lens/spec';

import { ProcessRM } from '../process-rm/process-rm.js';
import type { StepTokenGradients } from '../process-rm/step-gradients.js';
import { createByteBpeTokenizer } from '@reward-lens/tokenizers';
import { conformanceConfigs, conformancePairs, toleranceFor } from './conformance-fixtures.js';
import { check, checkAtMost, checkBelow, checkEqual, checkRejects, checkWithin, expectClose } from './conformance-assert.js';
import type { ConformanceHarness } from './conformance-harness.js';
import { requireCapability, SuiteBuilder } from './conformance-suite.js';
import { referenceForward } from './reference/reference-decoder.js';
import { referenceHead } from './reference/reference-head.js';

export type GradientConformanceTestName =
  | 'flags and methods agree'
  | 'backward reads equal forward reads'
  | 'gradient matches finite differences'
  | 'gradient adds over rows and ignores padding'
  | 'input-embedding gradient is the embedding row gradient'
  | 'input embeddings replace the token embeddings'
  | 'integrated gradients add up'
  | 'rejects bad gradient requests'
  | 'hvp matches finite differences of the gradient'
  | 'hvp is symmetric'
  | 'hvp carries the loss curvature'
  | 'step gradients are causal'
  | 'score hvp';

/** Gradient tests not to run, each group with its reason (reported as skipped, with the reason). */
export type GradientConformanceSkipList = readonly { reason: string; tests: readonly GradientConformanceTestName[] }[];

export interface GradientConformanceOptions {
  /** The test framework's functions: `vitestHarness({ describe, it })`, `nodeTestHarness(...)`, `jestHarness(...)` or `recordingHarness().harness`. */
  harness: ConformanceHarness;
  /** Creates the backend under test for decoder weights. */
  createBackend: (model: DecoderModel) => Promise<BackendV1>;
  /** Tests not run, each group with its reason; they are reported as skipped, with the reason. */
  skip?: GradientConformanceSkipList;
  /** Label in the suite's name. */
  label?: string;
}

const embeddingName = 'model.embed_tokens.weight';

function tokens(text: string): Int32Array {
  const tokenizer = createByteBpeTokenizer();
  return Int32Array.from([tokenizer.bosTokenId!, ...tokenizer.encode(text).ids]);
}

/** Rows padded on `side`, a value-head read at every real token of each row. */
function valueBatch(rows: Int32Array[], side: 'left' | 'right'): ForwardRequestV1 {
  const sequenceLength = Math.max(...rows.map((row) => row.length));
  const inputIds = new Int32Array(rows.length * sequenceLength);
  const attentionMask = new Uint8Array(rows.length * sequenceLength);
  const positions = rows.map((row, index) => {
    const shift = side === 'left' ? sequenceLength - row.length : 0;
    inputIds.set(row, index * sequenceLength + shift);
    attentionMask.fill(1, index * sequenceLength + shift, index * sequenceLength + shift + row.length);
    return Array.from(row, (_, position) => position + shift);
  });
  return { batchSize: rows.length, sequenceLength, inputIds, attentionMask, reads: [{ kind: 'head', head: 'value', positions }] };
}

/** Fixed coefficients `a` for a loss `Σ a·r` over a value read, per row in the row's own token order. */
function coefficients(rows: Int32Array[], seed: number): Float32Array[] {
  const random = createSeededRandom(seed);
  return rows.map((row) => Float32Array.from(row, () => random() * 2 - 1));
}

const linearLoss = (reads: readonly ReadResultV1[], weights: readonly Float32Array[]) =>
  reads[0]!.values.reduce((total, values, row) => total + values.reduce((sum, value, index) => sum + value * weights[row]![index]!, 0), 0);

/** A direction over every tensor, each tensor's part of norm 1/sqrt(tensors), so the whole has norm 1. */
function unitDirection(model: DecoderModel, seed: number): Map<string, Float32Array> {
  const random = createSeededRandom(seed);
  const share = 1 / Math.sqrt(model.tensors.size);
  return new Map(
    [...model.tensors].map(([name, tensor]) => {
      const values = Float32Array.from(tensor, () => random() * 2 - 1);
      const norm = Math.hypot(...values);
      return [name, values.map((value) => (value / norm) * share)];
    }),
  );
}

function shifted(model: DecoderModel, direction: ReadonlyMap<string, Float32Array>, step: number): DecoderModel {
  return {
    config: model.config,
    tensors: new Map([...model.tensors].map(([name, tensor]) => [name, tensor.map((value, index) => value + step * (direction.get(name)?.[index] ?? 0))])),
  };
}

function dot(a: ReadonlyMap<string, Float32Array>, b: ReadonlyMap<string, Float32Array>): number {
  let sum = 0;
  for (const [name, values] of a) {
    const other = b.get(name);
    if (other) for (let index = 0; index < values.length; index++) sum += values[index]! * other[index]!;
  }
  return sum;
}

/** max |actual - expected| / max |expected|, over every tensor. */
function relativeMapError(actual: ReadonlyMap<string, Float32Array>, expected: ReadonlyMap<string, Float64Array | Float32Array>): number {
  let difference = 0;
  let magnitude = 0;
  for (const [name, values] of expected) {
    const mine = actual.get(name)!;
    for (let index = 0; index < values.length; index++) {
      difference = Math.max(difference, Math.abs(mine[index]! - values[index]!));
      magnitude = Math.max(magnitude, Math.abs(values[index]!));
    }
  }
  return difference / magnitude;
}

/** Finite differences in float32 arithmetic are coarse: these bound their error, not the backend's. */
const differenceTolerance = (precision: BackendV1['precision']) => (precision === 'fp32' ? 2e-2 : 1e-1);

/**
 * The suite a backend claiming GRADIENTS (and HVP) must pass, beside `runBackendConformance`:
 * the flags match the optional `doBackward`/`doHvp` methods; gradients agree with central
 * differences of `doForward` along a random direction, add over rows and ignore padding; an input
 * embedding's gradient is its embedding row's; HVPs agree with differences of `doBackward`, are
 * symmetric and include the loss's own curvature; `prm.stepGradients` is causal and `prm.hvp`
 * consistent. A backend without the flags must lack the methods, and `ProcessRM` must refuse.
 * Like `runBackendConformance`, it runs on any test framework through `harness` and asserts by
 * throwing; a test of a flag the backend does not declare is reported as skipped, with the reason.
 *
 * @example
 * import { describe, it } from 'vitest';
 * runGradientConformance({ harness: vitestHarness({ describe, it }), createBackend: async (model) => createTinyBackend(model) });
 */
export function runGradientConformance(options: GradientConformanceOptions): void {
  if (!options?.harness) {
    throw new InvalidInputError(
      "runGradientConformance needs a harness: harness: vitestHarness({ describe, it }) with vitest's functions, nodeTestHarness({ describe, it }) with node:test's, or jestHarness({ describe, it })",
    );
  }
  const suite = new SuiteBuilder<GradientConformanceTestName>(options.harness, options.skip);
  const withBackend = async <Result>(model: DecoderModel, use: (backend: BackendV1) => Promise<Result>): Promise<Result> => {
    const backend = await options.createBackend(model);
    try {
      return await use(backend);
    } finally {
      await backend.dispose();
    }
  };
  /** A test of a flag: skipped, with the reason, when the backend does not declare it. */
  const test = (name: GradientConformanceTestName, flag: 'GRADIENTS' | 'HVP' | null, model: DecoderModel, body: (backend: BackendV1) => Promise<void>) =>
    suite.test(name, (context) =>
      withBackend(model, async (backend) => {
        if (flag !== null) requireCapability(context, backend, flag);
        await body(backend);
      }),
    );

  suite.describe(`gradient conformance${options.label ? `: ${options.label}` : ''}`, () => {
    for (const { label, config } of conformanceConfigs) {
      suite.describe(label, () => {
        const model = createRandomDecoder({ seed: 4321, config });
        const rows = [tokens('First, 2+2=4.'), tokens('Then 4*3=12, so 12-5=7.')];
        const weights = coefficients(rows, 9);

        test('flags and methods agree', null, model, async (backend) => {
          const gradients = (backend.capabilities & Capability.GRADIENTS) !== 0;
          const hvp = (backend.capabilities & Capability.HVP) !== 0;
          checkEqual(typeof backend.doBackward === 'function', gradients, 'doBackward is present exactly with GRADIENTS');
          checkEqual(typeof backend.doHvp === 'function', hvp, 'doHvp is present exactly with HVP');
          if (hvp) check(gradients, 'HVP comes with GRADIENTS');
          const prm = ProcessRM.fromBackend(backend, createByteBpeTokenizer());
          if (!gradients) {
            await checkRejects(
              prm.stepGradients([conformancePairs[0]!]),
              { code: 'UNSUPPORTED_CAPABILITY', capability: 'GRADIENTS' },
              'stepGradients without GRADIENTS',
            );
          }
          if (!hvp) {
            await checkRejects(prm.hvp(conformancePairs[0]!, { direction: {} }), { code: 'UNSUPPORTED_CAPABILITY', capability: 'HVP' }, 'hvp without HVP');
          }
        });

        test('backward reads equal forward reads', 'GRADIENTS', model, async (backend) => {
          const request = valueBatch(rows, 'right');
          const forward = await backend.doForward(request);
          const backward = await backend.doBackward!({
            ...request,
            readGradients: (reads) => [reads[0]!.values.map((values) => new Float32Array(values.length))],
          });
          backward.reads[0]!.values.forEach((values, row) => checkEqual(values, forward.reads[0]!.values[row]!, `backward reads of row ${row} vs doForward`));
          check(backward.parameters !== undefined, 'doBackward returned no parameter gradients');
          checkEqual(backward.parameters.size, model.tensors.size, 'number of parameter gradients');
          for (const [name, tensor] of model.tensors) checkEqual(backward.parameters.get(name)?.length, tensor.length, `gradient length of ${name}`);
          check(backward.inputEmbeddings !== undefined, 'doBackward returned no input-embedding gradients');
          checkEqual(
            backward.inputEmbeddings.map((values) => values.length),
            [request.sequenceLength * config.hiddenSize, request.sequenceLength * config.hiddenSize],
            'input-embedding gradient lengths',
          );
        });

        test('gradient matches finite differences', 'GRADIENTS', model, async (backend) => {
          const request = valueBatch(rows, 'right');
          const result = await backend.doBackward!({ ...request, readGradients: [weights], wrt: { parameters: true, inputEmbeddings: false } });
          check(result.inputEmbeddings === undefined, 'wrt.inputEmbeddings false: no input-embedding gradients expected');
          const direction = unitDirection(model, 3);
          const step = 1e-2;
          const lossAt = (sign: number) =>
            withBackend(shifted(model, direction, sign * step), async (moved) => linearLoss((await moved.doForward(request)).reads, weights));
          const difference = ((await lossAt(1)) - (await lossAt(-1))) / (2 * step);
          const analytic = dot(result.parameters!, direction);
          checkAtMost(
            Math.abs(analytic - difference),
            differenceTolerance(backend.precision) * Math.max(Math.abs(difference), 1e-3),
            `|gradient · direction - central difference| (gradient ${analytic}, difference ${difference})`,
          );
        });

        test('gradient adds over rows and ignores padding', 'GRADIENTS', model, async (backend) => {
          const alone = await Promise.all(rows.map((row, index) => backend.doBackward!({ ...valueBatch([row], 'right'), readGradients: [[weights[index]!]] })));
          for (const side of ['left', 'right'] as const) {
            const request = valueBatch(rows, side);
            const batched = await backend.doBackward!({ ...request, readGradients: [weights] });
            const summed = new Map(
              [...model.tensors.keys()].map((name) => [
                name,
                alone[0]!.parameters!.get(name)!.map((value, index) => value + alone[1]!.parameters!.get(name)![index]!),
              ]),
            );
            checkBelow(relativeMapError(batched.parameters!, summed), 1e-4, `parameters, padded on the ${side}: relative error vs the rows' sum`);
            rows.forEach((row, index) => {
              const shift = side === 'left' ? request.sequenceLength - row.length : 0;
              const mine = batched.inputEmbeddings![index]!.subarray(shift * config.hiddenSize, (shift + row.length) * config.hiddenSize);
              const theirs = alone[index]!.inputEmbeddings![0]!;
              const scale = Math.max(...theirs.map(Math.abs));
              checkWithin(mine, theirs, 1e-4 * scale, `input-embedding gradient of row ${index}, padded on the ${side}, vs the row alone`);
              const padding = [...batched.inputEmbeddings![index]!].filter(
                (_, at) => Math.floor(at / config.hiddenSize) < shift || Math.floor(at / config.hiddenSize) >= shift + row.length,
              );
              check(
                padding.every((value) => value === 0),
                `input-embedding gradient of row ${index}, padded on the ${side}: zeros at padding`,
              );
            });
          }
        });

        test('input-embedding gradient is the embedding row gradient', 'GRADIENTS', model, async (backend) => {
          const row = rows[1]!;
          const result = await backend.doBackward!({ ...valueBatch([row], 'right'), readGradients: [[weights[1]!]] });
          const table = result.parameters!.get(embeddingName)!;
          const { hiddenSize } = config;
          let checked = 0;
          row.forEach((id, position) => {
            if (row.indexOf(id) !== row.lastIndexOf(id)) return;
            const fromTable = table.subarray(id * hiddenSize, (id + 1) * hiddenSize);
            const fromInput = result.inputEmbeddings![0]!.subarray(position * hiddenSize, (position + 1) * hiddenSize);
            const scale = Math.max(1e-6, ...fromInput.map(Math.abs));
            checkWithin(fromTable, fromInput, 1e-5 * scale, `embedding row gradient of token ${id} vs its input-embedding gradient at ${position}`);
            checked++;
          });
          check(checked > 3, `only ${checked} tokens occur once in the row, expected more than 3`);
        });

        test('input embeddings replace the token embeddings', 'GRADIENTS', model, async (backend) => {
          const { hiddenSize } = config;
          const table = model.tensors.get(embeddingName)!;
          const request = valueBatch(rows, 'right');
          const gathered = rows.map((_, row) => {
            const values = new Float32Array(request.sequenceLength * hiddenSize);
            for (let column = 0; column < request.sequenceLength; column++) {
              if (request.attentionMask[row * request.sequenceLength + column] === 0) continue;
              const id = request.inputIds[row * request.sequenceLength + column]!;
              values.set(table.subarray(id * hiddenSize, (id + 1) * hiddenSize), column * hiddenSize);
            }
            return values;
          });
          const wrt = { parameters: false, inputEmbeddings: true };
          // The table's own rows fed in: the same pass.
          const plain = await backend.doBackward!({ ...request, readGradients: [weights], wrt });
          const fed = await backend.doBackward!({ ...request, readGradients: [weights], wrt, inputEmbeddings: gathered });
          fed.reads[0]!.values.forEach((values, row) => expectClose(values, plain.reads[0]!.values[row]!, 1e-6, `reads of row ${row}`));
          fed.inputEmbeddings!.forEach((values, row) => expectClose(values, plain.inputEmbeddings![row]!, 1e-6, `input gradient of row ${row}`));
          // Other vectors: the reads are the float64 oracle's on those vectors.
          const random = createSeededRandom(21);
          const moved = gathered.map((values) => values.map((value) => 0.5 * value + 0.02 * (random() * 2 - 1)));
          const at = await backend.doBackward!({ ...request, readGradients: [weights], wrt, inputEmbeddings: moved });
          rows.forEach((row, index) => {
            const embeddings = Array.from(row, (_, position) => Array.from(moved[index]!.subarray(position * hiddenSize, (position + 1) * hiddenSize)));
            const states = referenceForward(model, [...row], { embeddings }).states[config.numLayers]!;
            const expected = row.length === 0 ? [] : Array.from(row, (_, position) => referenceHead(model, states[position]!, 'value')[0]!);
            expectClose(at.reads[0]!.values[index]!, expected, toleranceFor(backend.precision), `oracle reads of row ${index} on scaled embeddings`);
          });
          // And the gradient there is the derivative of the loss in the vectors fed in.
          const raw = moved.map((values) => values.map(() => random() * 2 - 1));
          const norm = Math.hypot(...raw.flatMap((values) => [...values]));
          const direction = raw.map((values) => values.map((value) => value / norm));
          const step = 1e-2;
          const lossAt = async (sign: number) =>
            linearLoss(
              (
                await backend.doBackward!({
                  ...request,
                  readGradients: [weights],
                  wrt: { parameters: false, inputEmbeddings: false },
                  inputEmbeddings: moved.map((values, row) => values.map((value, entry) => value + sign * step * direction[row]![entry]!)),
                })
              ).reads,
              weights,
            );
          const difference = ((await lossAt(1)) - (await lossAt(-1))) / (2 * step);
          const analytic = at.inputEmbeddings!.reduce(
            (sum, values, row) => sum + values.reduce((inner, value, entry) => inner + value * direction[row]![entry]!, 0),
            0,
          );
          checkAtMost(
            Math.abs(analytic - difference),
            differenceTolerance(backend.precision) * Math.max(Math.abs(difference), 1e-3),
            `|input gradient · direction - central difference| (gradient ${analytic}, difference ${difference})`,
          );
          const contract = { code: 'BACKEND_CONTRACT' };
          await checkRejects(
            backend.doBackward!({ ...request, readGradients: [weights], inputEmbeddings: [gathered[0]!] }),
            contract,
            'input embeddings for one row of two',
          );
          await checkRejects(
            backend.doBackward!({ ...request, readGradients: [weights], inputEmbeddings: gathered.map((values) => values.subarray(1)) }),
            contract,
            'input embeddings of the wrong length',
          );
        });

        test('integrated gradients add up', 'GRADIENTS', model, async (backend) => {
          const prm = ProcessRM.fromBackend(backend, createByteBpeTokenizer());
          const pair = conformancePairs[0]!;
          if ((backend.capabilities & Capability.ACTIVATIONS) === 0) {
            await checkRejects(
              prm.stepGradients([pair], { integratedGradients: { steps: 8 } }),
              { code: 'UNSUPPORTED_CAPABILITY', capability: 'ACTIVATIONS' },
              'integrated gradients without ACTIVATIONS',
            );
            return;
          }
          const ids = [...prm.tokenize(pair).inputIds];
          const table = model.tensors.get(embeddingName)!;
          const padRow = Array.from(table.subarray(prm.tokenizer.padTokenId * config.hiddenSize, (prm.tokenizer.padTokenId + 1) * config.hiddenSize));
          const baselines = {
            pad: ids.map(() => padRow),
            zero: ids.map(() => new Array<number>(config.hiddenSize).fill(0)),
          };
          const gap = (step: StepTokenGradients) => Math.abs(step.integration!.sum - (step.integration!.scoreAtInput - step.integration!.scoreAtBaseline));
          const coarse = (await prm.stepGradients([pair], { integratedGradients: { steps: 16 } })).value.pairs[0]!.steps;
          for (const baseline of ['pad', 'zero'] as const) {
            const { value } = await prm.stepGradients([pair], { integratedGradients: { steps: 64, baseline } });
            for (const step of value.pairs[0]!.steps) {
              const integration = step.integration!;
              const what = `${baseline} baseline, step ${step.step}`;
              checkEqual(integration.steps, 64, `${what}: integration.steps`);
              checkEqual(integration.baseline, baseline, `${what}: integration.baseline`);
              checkEqual(integration.scoreAtInput, step.score, `${what}: integration.scoreAtInput vs the step's score`);
              // The baseline's score, from the oracle on the baseline's embeddings.
              const states = referenceForward(model, ids, { embeddings: baselines[baseline] }).states[config.numLayers]!;
              const expected = referenceHead(model, states[step.readTokenIndex]!, 'value')[0]!;
              expectClose([integration.scoreAtBaseline], [expected], toleranceFor(backend.precision), `${baseline} baseline score of step ${step.step}`);
              check(
                step.integratedGradients!.subarray(step.readTokenIndex + 1).every((entry) => entry === 0),
                `${what}: integrated gradients after the read token are not all zero`,
              );
              if (baseline === 'zero') continue;
              // Completeness on the padding path: the attributions sum to the score difference, the
              // midpoint rule's gap shrinking about 16-fold from 16 to 64 points (at least 4-fold here).
              const difference = integration.scoreAtInput - integration.scoreAtBaseline;
              const label = `step ${step.step}: sum ${integration.sum}, difference ${difference}, gap at 16 points ${gap(coarse[step.step]!)}; gap at 64 points`;
              checkAtMost(gap(step), Math.max(gap(coarse[step.step]!) / 4, 1e-5), label);
              checkAtMost(gap(step), 2e-2 * Math.max(Math.abs(difference), 0.1), label);
            }
          }
          await checkRejects(prm.stepGradients([pair], { integratedGradients: { steps: 0 } }), { code: 'INVALID_INPUT' }, 'integrated gradients with 0 steps');
        });

        test('rejects bad gradient requests', 'GRADIENTS', model, async (backend) => {
          const request = valueBatch(rows, 'right');
          const contract = { code: 'BACKEND_CONTRACT' };
          await checkRejects(backend.doBackward!({ ...request, readGradients: [[weights[0]!]] }), contract, 'read gradients for one row of two');
          await checkRejects(backend.doBackward!({ ...request, readGradients: [[weights[0]!, weights[0]!]] }), contract, 'read gradients of the wrong lengths');
          await checkRejects(backend.doBackward!({ ...request, readGradients: () => [] }), contract, 'a readGradients function returning no gradients');
          await checkRejects(backend.doBackward!({ ...request, returnCache: true, readGradients: [weights] }), contract, 'doBackward with returnCache');
          if ((backend.capabilities & Capability.HVP) !== 0) {
            const direction = { parameters: new Map([['no.such.tensor', new Float32Array(3)]]) };
            await checkRejects(backend.doHvp!({ ...request, readGradients: [weights], direction }), contract, 'an hvp direction naming an unknown tensor');
            const short = { parameters: new Map([[embeddingName, new Float32Array(3)]]) };
            await checkRejects(backend.doHvp!({ ...request, readGradients: [weights], direction: short }), contract, 'an hvp direction of the wrong length');
          }
        });

        test('hvp matches finite differences of the gradient', 'HVP', model, async (backend) => {
          const request = valueBatch(rows, 'right');
          const direction = unitDirection(model, 5);
          const result = await backend.doHvp!({ ...request, readGradients: [weights], direction: { parameters: direction } });
          checkBelow(
            relativeMapError(result.parameters!, (await backend.doBackward!({ ...request, readGradients: [weights] })).parameters!),
            1e-5,
            "doHvp's gradient vs doBackward's: relative error",
          );
          const step = 1e-2;
          const gradientAt = (sign: number) =>
            withBackend(
              shifted(model, direction, sign * step),
              async (moved) => (await moved.doBackward!({ ...request, readGradients: [weights] })).parameters!,
            );
          const [plus, minus] = [await gradientAt(1), await gradientAt(-1)];
          const difference = new Map(
            [...plus].map(([name, values]) => [name, Float64Array.from(values, (value, index) => (value - minus.get(name)![index]!) / (2 * step))]),
          );
          checkBelow(
            relativeMapError(result.hvp.parameters!, difference),
            differenceTolerance(backend.precision) * 5,
            'hvp vs central differences of the gradient: relative error',
          );
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
          const step = 1e-2;
          const gradientAt = (sign: number) =>
            withBackend(shifted(model, direction, sign * step), async (moved) => (await moved.doBackward!({ ...request, readGradients: seeds })).parameters!);
          const [plus, minus] = [await gradientAt(1), await gradientAt(-1)];
          const difference = new Map(
            [...plus].map(([name, values]) => [name, Float64Array.from(values, (value, index) => (value - minus.get(name)![index]!) / (2 * step))]),
          );
          checkBelow(
            relativeMapError(result.hvp.parameters!, difference),
            differenceTolerance(backend.precision) * 5,
            'hvp vs central differences of the gradient: relative error',
          );
          // The reads' tangents are J·v: a directional derivative of the reads.
          const readsAt = (sign: number) =>
            withBackend(shifted(model, direction, sign * step), async (moved) => (await moved.doForward(request)).reads[0]!.values);
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
      });
    }
  });
}
