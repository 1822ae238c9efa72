import { describe, expect, it } from 'vitest';
import type { BackendV1, ForwardRequestV1, ReadGradientsV1, ReadResultV1 } from '../backend/v1/backend-v1.js';
import { Capability } from '../capabilities.js';
import type { DecoderModel } from '../model/decoder-model.js';
import { createRandomDecoder } from '../model/random-decoder.js';
import { createSeededRandom } from '../model/seeded-random.js';
import { ProcessRM } from '../process-rm/process-rm.js';
import type { StepTokenGradients } from '../process-rm/step-gradients.js';
import { createByteBpeTokenizer } from '../tokenizers/byte-bpe-tokenizer.js';
import { conformanceConfigs, conformancePairs, toleranceFor } from './conformance-fixtures.js';
import { expectClose } from './conformance-assert.js';
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

export interface GradientConformanceOptions {
  /** Creates the backend under test for decoder weights. */
  createBackend: (model: DecoderModel) => Promise<BackendV1>;
  /** Tests not run, each group with its reason. */
  skip?: { reason: string; tests: GradientConformanceTestName[] }[];
  /** Label in the test names. */
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
 *
 * @example
 * runGradientConformance({ createBackend: async (model) => createTinyBackend(model) });
 */
export function runGradientConformance(options: GradientConformanceOptions): void {
  const skipped = new Map<GradientConformanceTestName, string>();
  for (const group of options.skip ?? []) for (const test of group.tests) skipped.set(test, group.reason);
  const withBackend = async <Result>(model: DecoderModel, use: (backend: BackendV1) => Promise<Result>): Promise<Result> => {
    const backend = await options.createBackend(model);
    try {
      return await use(backend);
    } finally {
      await backend.dispose();
    }
  };
  /** A test of a flag: skipped with a reason when the backend does not claim it. */
  const test = (name: GradientConformanceTestName, flag: 'GRADIENTS' | 'HVP' | null, model: DecoderModel, body: (backend: BackendV1) => Promise<void>) => {
    const reason = skipped.get(name);
    if (reason !== undefined) {
      it.skip(`${name} (skipped: ${reason})`, () => {});
      return;
    }
    it(name, async (context) => {
      await withBackend(model, async (backend) => {
        if (flag !== null && (backend.capabilities & Capability[flag]) === 0) {
          context.skip(`backend "${backend.name}" does not claim ${flag}`);
          return;
        }
        await body(backend);
      });
    });
  };

  describe(`gradient conformance${options.label ? `: ${options.label}` : ''}`, () => {
    for (const { label, config } of conformanceConfigs) {
      describe(label, () => {
        const model = createRandomDecoder({ seed: 4321, config });
        const rows = [tokens('First, 2+2=4.'), tokens('Then 4*3=12, so 12-5=7.')];
        const weights = coefficients(rows, 9);

        test('flags and methods agree', null, model, async (backend) => {
          const gradients = (backend.capabilities & Capability.GRADIENTS) !== 0;
          const hvp = (backend.capabilities & Capability.HVP) !== 0;
          expect(typeof backend.doBackward === 'function', 'doBackward is present exactly with GRADIENTS').toBe(gradients);
          expect(typeof backend.doHvp === 'function', 'doHvp is present exactly with HVP').toBe(hvp);
          if (hvp) expect(gradients, 'HVP comes with GRADIENTS').toBe(true);
          const prm = ProcessRM.fromBackend(backend, createByteBpeTokenizer());
          if (!gradients) {
            await expect(prm.stepGradients([conformancePairs[0]!])).rejects.toMatchObject({ code: 'UNSUPPORTED_CAPABILITY', capability: 'GRADIENTS' });
          }
          if (!hvp) {
            await expect(prm.hvp(conformancePairs[0]!, { direction: {} })).rejects.toMatchObject({ code: 'UNSUPPORTED_CAPABILITY', capability: 'HVP' });
          }
        });

        test('backward reads equal forward reads', 'GRADIENTS', model, async (backend) => {
          const request = valueBatch(rows, 'right');
          const forward = await backend.doForward(request);
          const backward = await backend.doBackward!({
            ...request,
            readGradients: (reads) => [reads[0]!.values.map((values) => new Float32Array(values.length))],
          });
          backward.reads[0]!.values.forEach((values, row) => expect([...values]).toEqual([...forward.reads[0]!.values[row]!]));
          expect(backward.parameters!.size).toBe(model.tensors.size);
          for (const [name, tensor] of model.tensors) expect(backward.parameters!.get(name)!.length, name).toBe(tensor.length);
          expect(backward.inputEmbeddings!.map((values) => values.length)).toEqual([
            request.sequenceLength * config.hiddenSize,
            request.sequenceLength * config.hiddenSize,
          ]);
        });

        test('gradient matches finite differences', 'GRADIENTS', model, async (backend) => {
          const request = valueBatch(rows, 'right');
          const result = await backend.doBackward!({ ...request, readGradients: [weights], wrt: { parameters: true, inputEmbeddings: false } });
          expect(result.inputEmbeddings).toBeUndefined();
          const direction = unitDirection(model, 3);
          const step = 1e-2;
          const lossAt = (sign: number) =>
            withBackend(shifted(model, direction, sign * step), async (moved) => linearLoss((await moved.doForward(request)).reads, weights));
          const difference = ((await lossAt(1)) - (await lossAt(-1))) / (2 * step);
          const analytic = dot(result.parameters!, direction);
          expect(Math.abs(analytic - difference)).toBeLessThanOrEqual(differenceTolerance(backend.precision) * Math.max(Math.abs(difference), 1e-3));
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
            expect(relativeMapError(batched.parameters!, summed), `parameters, padded on the ${side}`).toBeLessThan(1e-4);
            rows.forEach((row, index) => {
              const shift = side === 'left' ? request.sequenceLength - row.length : 0;
              const mine = batched.inputEmbeddings![index]!.subarray(shift * config.hiddenSize, (shift + row.length) * config.hiddenSize);
              const theirs = alone[index]!.inputEmbeddings![0]!;
              const scale = Math.max(...theirs.map(Math.abs));
              mine.forEach((value, at) => expect(Math.abs(value - theirs[at]!)).toBeLessThanOrEqual(1e-4 * scale));
              const padding = [...batched.inputEmbeddings![index]!].filter(
                (_, at) => Math.floor(at / config.hiddenSize) < shift || Math.floor(at / config.hiddenSize) >= shift + row.length,
              );
              expect(
                padding.every((value) => value === 0),
                'zeros at padding',
              ).toBe(true);
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
            fromTable.forEach((value, index) => expect(Math.abs(value - fromInput[index]!)).toBeLessThanOrEqual(1e-5 * scale));
            checked++;
          });
          expect(checked).toBeGreaterThan(3);
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
          expect(Math.abs(analytic - difference)).toBeLessThanOrEqual(differenceTolerance(backend.precision) * Math.max(Math.abs(difference), 1e-3));
          const contract = { code: 'BACKEND_CONTRACT' };
          await expect(backend.doBackward!({ ...request, readGradients: [weights], inputEmbeddings: [gathered[0]!] })).rejects.toMatchObject(contract);
          await expect(
            backend.doBackward!({ ...request, readGradients: [weights], inputEmbeddings: gathered.map((values) => values.subarray(1)) }),
          ).rejects.toMatchObject(contract);
        });

        test('integrated gradients add up', 'GRADIENTS', model, async (backend) => {
          const prm = ProcessRM.fromBackend(backend, createByteBpeTokenizer());
          const pair = conformancePairs[0]!;
          if ((backend.capabilities & Capability.ACTIVATIONS) === 0) {
            await expect(prm.stepGradients([pair], { integratedGradients: { steps: 8 } })).rejects.toMatchObject({ capability: 'ACTIVATIONS' });
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
              const check = step.integration!;
              expect(check).toMatchObject({ steps: 64, baseline, scoreAtInput: step.score });
              // The baseline's score, from the oracle on the baseline's embeddings.
              const states = referenceForward(model, ids, { embeddings: baselines[baseline] }).states[config.numLayers]!;
              const expected = referenceHead(model, states[step.readTokenIndex]!, 'value')[0]!;
              expectClose([check.scoreAtBaseline], [expected], toleranceFor(backend.precision), `${baseline} baseline score of step ${step.step}`);
              expect([...step.integratedGradients!.subarray(step.readTokenIndex + 1)].every((entry) => entry === 0)).toBe(true);
              if (baseline === 'zero') continue;
              // Completeness on the padding path: the attributions sum to the score difference, the
              // midpoint rule's gap shrinking about 16-fold from 16 to 64 points (at least 4-fold here).
              const difference = check.scoreAtInput - check.scoreAtBaseline;
              const label = `step ${step.step}: sum ${check.sum}, difference ${difference}, gap at 16 points ${gap(coarse[step.step]!)}`;
              expect(gap(step), label).toBeLessThanOrEqual(Math.max(gap(coarse[step.step]!) / 4, 1e-5));
              expect(gap(step), label).toBeLessThanOrEqual(2e-2 * Math.max(Math.abs(difference), 0.1));
            }
          }
          await expect(prm.stepGradients([pair], { integratedGradients: { steps: 0 } })).rejects.toMatchObject({ code: 'INVALID_INPUT' });
        });

        test('rejects bad gradient requests', 'GRADIENTS', model, async (backend) => {
          const request = valueBatch(rows, 'right');
          const contract = { code: 'BACKEND_CONTRACT' };
          await expect(backend.doBackward!({ ...request, readGradients: [[weights[0]!]] })).rejects.toMatchObject(contract);
          await expect(backend.doBackward!({ ...request, readGradients: [[weights[0]!, weights[0]!]] })).rejects.toMatchObject(contract);
          await expect(backend.doBackward!({ ...request, readGradients: () => [] })).rejects.toMatchObject(contract);
          await expect(backend.doBackward!({ ...request, returnCache: true, readGradients: [weights] })).rejects.toMatchObject(contract);
          if ((backend.capabilities & Capability.HVP) !== 0) {
            const direction = { parameters: new Map([['no.such.tensor', new Float32Array(3)]]) };
            await expect(backend.doHvp!({ ...request, readGradients: [weights], direction })).rejects.toMatchObject(contract);
            const short = { parameters: new Map([[embeddingName, new Float32Array(3)]]) };
            await expect(backend.doHvp!({ ...request, readGradients: [weights], direction: short })).rejects.toMatchObject(contract);
          }
        });

        test('hvp matches finite differences of the gradient', 'HVP', model, async (backend) => {
          const request = valueBatch(rows, 'right');
          const direction = unitDirection(model, 5);
          const result = await backend.doHvp!({ ...request, readGradients: [weights], direction: { parameters: direction } });
          expect(relativeMapError(result.parameters!, (await backend.doBackward!({ ...request, readGradients: [weights] })).parameters!)).toBeLessThan(1e-5);
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
          expect(relativeMapError(result.hvp.parameters!, difference)).toBeLessThan(differenceTolerance(backend.precision) * 5);
        });

        test('hvp is symmetric', 'HVP', model, async (backend) => {
          const request = valueBatch(rows, 'right');
          const [u, v] = [unitDirection(model, 6), unitDirection(model, 7)];
          const hu = (await backend.doHvp!({ ...request, readGradients: [weights], direction: { parameters: u } })).hvp.parameters!;
          const hv = (await backend.doHvp!({ ...request, readGradients: [weights], direction: { parameters: v } })).hvp.parameters!;
          const [uHv, vHu] = [dot(u, hv), dot(v, hu)];
          expect(Math.abs(uHv - vHu)).toBeLessThanOrEqual(1e-3 * Math.max(Math.abs(uHv), 1e-3));
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
          expect(relativeMapError(result.hvp.parameters!, difference)).toBeLessThan(differenceTolerance(backend.precision) * 5);
          // The reads' tangents are J·v: a directional derivative of the reads.
          const readsAt = (sign: number) =>
            withBackend(shifted(model, direction, sign * step), async (moved) => (await moved.doForward(request)).reads[0]!.values);
          const [up, down] = [await readsAt(1), await readsAt(-1)];
          result.readTangents[0]!.values.forEach((values, row) => {
            const expected = values.map((_, index) => (up[row]![index]! - down[row]![index]!) / (2 * step));
            const scale = Math.max(...expected.map(Math.abs));
            values.forEach((value, index) => expect(Math.abs(value - expected[index]!)).toBeLessThanOrEqual(differenceTolerance(backend.precision) * scale));
          });
        });

        test('step gradients are causal', 'GRADIENTS', model, async (backend) => {
          const prm = ProcessRM.fromBackend(backend, createByteBpeTokenizer());
          const pair = conformancePairs[0]!;
          const scores = (await prm.stepScores([pair])).value.curves[0]!;
          const { value } = await prm.stepGradients([pair], { output: 'vector' });
          const explained = value.pairs[0]!;
          expect(explained.steps.map((step) => step.step)).toEqual([0, 1, 2]);
          expect(value.hiddenSize).toBe(config.hiddenSize);
          for (const step of explained.steps) {
            expect(Math.abs(step.score - scores[step.step]!)).toBeLessThanOrEqual(1e-4 * Math.max(1, Math.abs(scores[step.step]!)));
            expect(step.norms.length).toBe(explained.inputIds.length);
            for (let token = step.readTokenIndex + 1; token < step.norms.length; token++) expect(step.norms[token], `token ${token} after the read`).toBe(0);
            expect(step.norms[step.readTokenIndex]).toBeGreaterThan(0);
            expect(step.vectors!.length).toBe(explained.inputIds.length * config.hiddenSize);
            if ((backend.capabilities & Capability.ACTIVATIONS) !== 0) expect(step.gradientTimesInput.every(Number.isFinite)).toBe(true);
          }
          const only = await prm.stepGradients([pair], { steps: [1] });
          expect(only.value.pairs[0]!.steps.map((step) => step.step)).toEqual([1]);
          expect([...only.value.pairs[0]!.steps[0]!.norms]).toEqual([...explained.steps[1]!.norms]);
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
          expect(hv.step).toBe(2);
          expect(hv.gradient.parameters).toBeDefined();
          expect(hu.gradient.parameters).toBeUndefined();
          const vectors = (await prm.stepGradients([pair], { output: 'vector', steps: [2] })).value.pairs[0]!.steps[0]!.vectors!;
          const scale = Math.max(...vectors.map(Math.abs));
          hv.gradient.inputEmbeddings!.forEach((value, index) => expect(Math.abs(value - vectors[index]!)).toBeLessThanOrEqual(1e-4 * scale));
          const uHv = u.reduce((sum, value, index) => sum + value * hv.hvp.inputEmbeddings![index]!, 0);
          const vHu = v.reduce((sum, value, index) => sum + value * hu.hvp.inputEmbeddings![index]!, 0);
          expect(Math.abs(uHv - vHu)).toBeLessThanOrEqual(1e-3 * Math.max(Math.abs(uHv), 1e-6));
          await expect(prm.hvp(pair, { step: 7, direction: {} })).rejects.toMatchObject({ code: 'INVALID_INPUT' });
        });
      });
    }
  });
}
