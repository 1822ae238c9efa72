import { type BackendV1, Capability, InvalidInputError, type DecoderModel, createRandomDecoder, createSeededRandom } from '@reward-lens/spec';

import { ProcessRM } from '../process-rm/process-rm.js';
import type { StepTokenGradients } from '../process-rm/step-gradients.js';
import { createByteBpeTokenizer } from '@reward-lens/tokenizers';
import { conformanceConfigs, conformancePairs, toleranceFor } from './conformance-fixtures.js';
import { check, checkAtMost, checkBelow, checkEqual, checkRejects, checkWithin, expectClose } from './conformance-assert.js';
import type { ConformanceHarness } from './conformance-harness.js';
import { requireCapability, SuiteBuilder } from './conformance-suite.js';
import { referenceForward } from './reference/reference-decoder.js';
import { referenceHead } from './reference/reference-head.js';
import {
  coefficients,
  differenceTolerance,
  dot,
  embeddingName,
  linearLoss,
  relativeMapError,
  shifted,
  tokens,
  unitDirection,
  valueBatch,
} from './gradient-conformance-math.js';
import { defineHvpTests } from './hvp-conformance-tests.js';
import type { GradientConformanceTestName, GradientTest } from './gradient-test.js';

export type { GradientConformanceTestName, GradientTest } from './gradient-test.js';

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
  const test: GradientTest = (
    name: GradientConformanceTestName,
    flag: 'GRADIENTS' | 'HVP' | null,
    model: DecoderModel,
    body: (backend: BackendV1) => Promise<void>,
  ) =>
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

        defineHvpTests({ test, withBackend, model, config, rows, weights });
      });
    }
  });
}
