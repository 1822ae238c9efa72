import { describe, expect, it } from 'vitest';
import type { BackendV1, ForwardRequestV1, ReadRequestV1 } from '../backend/v1/backend-v1.js';
import { Capability, formatCapabilities } from '../capabilities.js';
import { RewardLensError } from '../errors/reward-lens-error.js';
import type { DecoderModel } from '../model/decoder-model.js';
import { createRandomDecoder } from '../model/random-decoder.js';
import { ProcessRM } from '../process-rm/process-rm.js';
import { createByteBpeTokenizer } from '../tokenizers/byte-bpe-tokenizer.js';
import { conformanceConfigs, conformancePairs, toleranceFor } from './conformance-fixtures.js';
import { countingBackend } from './counting-backend.js';
import { expectClose } from './expect-close.js';

export type ConformanceTestName =
  | 'spec contract'
  | 'rejects bad requests'
  | 'capability checks'
  | 'deterministic'
  | 'padding invariance'
  | 'last step equals outcome'
  | 'one forward pass per solution'
  | 'seeded weights'
  | 'linear readout'
  | 'hidden states'
  | 'kv cache'
  | 'prefix scoring'
  | 'parity with reference'
  | 'dispose';

export interface ConformanceOptions {
  /** Creates the backend under test for decoder weights. */
  createBackend: (model: DecoderModel) => Promise<BackendV1>;
  /** A backend the results must match within the declared precision's tolerance (e.g. backend-tiny). */
  createReference?: (model: DecoderModel) => Promise<BackendV1>;
  /** Tests not run, each group with its reason. */
  skip?: { reason: string; tests: ConformanceTestName[] }[];
  /** Label in the test names. */
  label?: string;
}

function tokens(text: string): Int32Array {
  const tokenizer = createByteBpeTokenizer();
  return Int32Array.from([tokenizer.bosTokenId!, ...tokenizer.encode(text).ids]);
}

/** A padded batch of the given rows, padded on `side`, reading `read(positionsOfRealTokens)` */
function batchOf(rows: Int32Array[], side: 'left' | 'right', read: (positions: number[][]) => ReadRequestV1): ForwardRequestV1 {
  const sequenceLength = Math.max(...rows.map((row) => row.length));
  const inputIds = new Int32Array(rows.length * sequenceLength);
  const attentionMask = new Uint8Array(rows.length * sequenceLength);
  const positions: number[][] = [];
  rows.forEach((row, index) => {
    const shift = side === 'left' ? sequenceLength - row.length : 0;
    inputIds.set(row, index * sequenceLength + shift);
    attentionMask.fill(1, index * sequenceLength + shift, index * sequenceLength + shift + row.length);
    positions.push(Array.from(row, (_, position) => position + shift));
  });
  return { batchSize: rows.length, sequenceLength, inputIds, attentionMask, reads: [read(positions)] };
}

const valueRead = (positions: number[][]): ReadRequestV1 => ({ kind: 'head', head: 'value', positions });

/**
 * The suite every backend runs: the spec contract, the PRM invariants (last step = outcome, one
 * pass per solution, padding invariance, seeded determinism), the KV cache, and parity with a
 * reference backend within the tolerance of the declared precision.
 *
 * @example
 * runBackendConformance({ createBackend: (model) => createTinyBackend(model) });
 */
export function runBackendConformance(options: ConformanceOptions): void {
  const skipped = new Map<ConformanceTestName, string>();
  for (const group of options.skip ?? []) for (const test of group.tests) skipped.set(test, group.reason);
  const test = (name: ConformanceTestName, body: () => Promise<void>) => {
    const reason = skipped.get(name);
    if (reason !== undefined) it.skip(`${name} (skipped: ${reason})`, body);
    else it(name, body);
  };
  const withBackend = async <Result>(model: DecoderModel, use: (backend: BackendV1) => Promise<Result>): Promise<Result> => {
    const backend = await options.createBackend(model);
    try {
      return await use(backend);
    } finally {
      await backend.dispose();
    }
  };

  describe(`backend conformance${options.label ? `: ${options.label}` : ''}`, () => {
    for (const { label, config } of conformanceConfigs) {
      describe(label, () => {
        const model = createRandomDecoder({ seed: 1234, config });

        test('spec contract', () =>
          withBackend(model, async (backend) => {
            expect(backend.specificationVersion).toBe('v1');
            expect(backend.name).toMatch(/^[a-z0-9-]+$/);
            expect(['fp32', 'fp16', 'bf16']).toContain(backend.precision);
            expect(formatCapabilities(backend.capabilities)).not.toBe('NONE');
            expect(backend.info.vocabSize).toBe(config.vocabSize);
            expect(backend.info.hiddenSize).toBe(config.hiddenSize);
            expect(backend.info.numLayers).toBe(config.numLayers);
            expect(backend.info.maxPositions).toBeLessThanOrEqual(config.maxPositions);
            for (const head of config.heads) expect(backend.info.heads.map((h) => h.name)).toContain(head.name);
            const result = await backend.doForward(batchOf([tokens('1+1=2')], 'right', valueRead));
            expect(result.reads).toHaveLength(1);
            expect(result.reads[0]!.width).toBe(1);
            expect(result.reads[0]!.values[0]).toBeInstanceOf(Float32Array);
            expect(result.reads[0]!.values[0]!.length).toBe(tokens('1+1=2').length);
            expect(result.caches).toBeUndefined();
          }));

        test('rejects bad requests', () =>
          withBackend(model, async (backend) => {
            const good = batchOf([tokens('abc'), tokens('a')], 'right', valueRead);
            const expectContract = async (request: ForwardRequestV1, pattern: RegExp) => {
              const error = await backend.doForward(request).then(
                () => undefined,
                (caught: unknown) => caught,
              );
              expect(RewardLensError.isInstance(error), `expected a reward-lens error for ${pattern}`).toBe(true);
              expect((error as RewardLensError).message).toMatch(pattern);
            };
            await expectContract({ ...good, inputIds: good.inputIds.map((id, index) => (index === 1 ? config.vocabSize : id)) }, /outside the vocabulary/);
            await expectContract({ ...good, inputIds: good.inputIds.slice(1) }, /inputIds has/);
            await expectContract({ ...good, reads: [{ kind: 'head', head: 'value', positions: [[0], [2]] }] }, /padding/);
            await expectContract({ ...good, reads: [{ kind: 'head', head: 'nope', positions: [[0], [0]] }] }, /no head named "nope"/);
            await expectContract({ ...good, reads: [{ kind: 'head', head: 'lm', positions: [[0], [0]], columns: [config.vocabSize] }] }, /column/);
          }));

        test('capability checks', () =>
          withBackend(model, async (backend) => {
            const hidden = batchOf([tokens('x')], 'right', (positions) => ({ kind: 'hidden', layer: 1, positions }));
            if (backend.capabilities & Capability.ACTIVATIONS) {
              const result = await backend.doForward(hidden);
              expect(result.reads[0]!.width).toBe(config.hiddenSize);
            } else {
              await expect(backend.doForward(hidden)).rejects.toMatchObject({ code: 'UNSUPPORTED_CAPABILITY', capability: 'ACTIVATIONS' });
            }
            const tokenizer = createByteBpeTokenizer();
            const prm = ProcessRM.fromBackend(countingBackend(backend), tokenizer);
            for (const [flag, call] of [
              ['PREFIX_SCORES', () => prm.prefixScores([conformancePairs[0]!])],
              ['STEP_SCORES', () => prm.stepScores([conformancePairs[0]!])],
            ] as const) {
              if ((backend.capabilities & Capability[flag]) === 0)
                await expect(call()).rejects.toMatchObject({ code: 'UNSUPPORTED_CAPABILITY', capability: flag });
            }
          }));

        test('deterministic', () =>
          withBackend(model, async (backend) => {
            const request = batchOf([tokens('Then, 4*3=12.'), tokens('x')], 'right', valueRead);
            const first = await backend.doForward(request);
            const second = await backend.doForward(request);
            expect(second.reads[0]!.values).toEqual(first.reads[0]!.values);
          }));

        test('padding invariance', () =>
          withBackend(model, async (backend) => {
            const short = tokens('First, 2+2=4.');
            const long = tokens('A much longer neighbour that forces padding on the short row, twice over.');
            const alone = (await backend.doForward(batchOf([short], 'right', valueRead))).reads[0]!.values[0]!;
            for (const side of ['left', 'right'] as const) {
              const batched = await backend.doForward(batchOf([long, short, long], side, valueRead));
              expectClose(batched.reads[0]!.values[1]!, alone, toleranceFor(backend.precision), `short row padded on the ${side}`);
            }
          }));

        test('last step equals outcome', () =>
          withBackend(model, async (backend) => {
            const prm = ProcessRM.fromBackend(backend, createByteBpeTokenizer());
            const steps = await prm.stepScores(conformancePairs);
            const outcome = await prm.score(conformancePairs);
            conformancePairs.forEach((_, index) => {
              const curve = steps.value.curves[index]!;
              expect(curve.length).toBe(steps.value.stepCounts[index]);
              expect(curve[curve.length - 1]).toBe(outcome.value.values[index]);
              const pair = steps.value.steps[index]!;
              expect(pair[pair.length - 1]!.readTokenIndex).toBe(prm.tokenize(conformancePairs[index]!).inputIds.length - 1);
            });
            expect(steps.value.stepCounts).toEqual([3, 3, 1, 4]);
            expect(steps.trust).toBe('EXPLORATORY');
          }));

        test('one forward pass per solution', () =>
          withBackend(model, async (backend) => {
            const counted = countingBackend(backend);
            const prm = ProcessRM.fromBackend(counted, createByteBpeTokenizer(), { batchSize: 1 });
            const result = await prm.stepScores(conformancePairs);
            expect(counted.forwardCalls).toBe(conformancePairs.length);
            expect(result.value.stepCounts.reduce((sum, count) => sum + count, 0)).toBe(11);
            const batched = countingBackend(backend);
            await ProcessRM.fromBackend(batched, createByteBpeTokenizer(), { batchSize: 8 }).stepScores(conformancePairs);
            expect(batched.forwardCalls).toBe(1);
          }));

        test('seeded weights', async () => {
          const read = async (seed: number) =>
            withBackend(
              createRandomDecoder({ seed, config }),
              async (backend) => (await ProcessRM.fromBackend(backend, createByteBpeTokenizer()).stepScores([conformancePairs[0]!])).value.curves[0]!,
            );
          const first = await read(7);
          expect(await read(7)).toEqual(first);
          expect(await read(8)).not.toEqual(first);
        });

        test('linear readout', () =>
          withBackend(model, async (backend) => {
            if ((backend.capabilities & Capability.LINEAR_READOUT) === 0) {
              await expect(ProcessRM.fromBackend(backend, createByteBpeTokenizer()).stepScores([conformancePairs[0]!], { layer: 1 })).rejects.toMatchObject({
                capability: 'LINEAR_READOUT',
              });
              return;
            }
            const prm = ProcessRM.fromBackend(backend, createByteBpeTokenizer());
            const final = (await prm.stepScores([conformancePairs[0]!])).value.curves[0]!;
            const atLast = (await prm.stepScores([conformancePairs[0]!], { layer: config.numLayers })).value.curves[0]!;
            expect(atLast).toEqual(final);
            const inner = (await prm.stepScores([conformancePairs[0]!], { layer: 1 })).value.curves[0]!;
            expect(inner.length).toBe(final.length);
            expect(inner).not.toEqual(final);
          }));

        test('hidden states', () =>
          withBackend(model, async (backend) => {
            if ((backend.capabilities & Capability.ACTIVATIONS) === 0) return;
            const ids = tokens('2+2=4');
            const embeddings = (await backend.doForward(batchOf([ids], 'right', (positions) => ({ kind: 'hidden', layer: 0, positions })))).reads[0]!;
            const table = model.tensors.get('model.embed_tokens.weight')!;
            const first = ids[1]!;
            expectClose(
              embeddings.values[0]!.subarray(config.hiddenSize, 2 * config.hiddenSize),
              table.subarray(first * config.hiddenSize, (first + 1) * config.hiddenSize),
              toleranceFor(backend.precision),
              'layer 0 is the embedding row',
            );
          }));

        test('kv cache', () =>
          withBackend(model, async (backend) => {
            if (!backend.supportsCache) {
              await expect(backend.doForward({ ...batchOf([tokens('a')], 'right', valueRead), returnCache: true })).rejects.toMatchObject({
                code: 'UNSUPPORTED_CAPABILITY',
              });
              return;
            }
            const full = tokens('First, 2+2=4.\nThen, 4*3=12.\nFinally, 12-5=7.');
            const whole = (await backend.doForward(batchOf([full], 'right', valueRead))).reads[0]!.values[0]!;
            const cut = 9;
            const prefix = await backend.doForward({ ...batchOf([full.slice(0, cut)], 'right', valueRead), returnCache: true });
            const cache = prefix.caches![0]!;
            expect(cache.length).toBe(cut);
            const fork = cache.fork();
            const rest = await backend.doForward({ ...batchOf([full.slice(cut)], 'right', valueRead), past: [cache], returnCache: true });
            expect(rest.caches![0]!.length).toBe(full.length);
            const tolerance = toleranceFor(backend.precision);
            expectClose(rest.reads[0]!.values[0]!, whole.subarray(cut), tolerance, 'extended prefix vs one full pass');
            // A fork continues differently without disturbing the original.
            const other = tokens('Then, 4*4=16.').slice(1);
            const forked = await backend.doForward({ ...batchOf([other], 'right', valueRead), past: [fork] });
            const reference = (await backend.doForward(batchOf([Int32Array.from([...full.slice(0, cut), ...other])], 'right', valueRead))).reads[0]!.values[0]!;
            expectClose(forked.reads[0]!.values[0]!, reference.subarray(cut), tolerance, 'forked continuation');
            const again = await backend.doForward({ ...batchOf([full.slice(cut)], 'right', valueRead), past: [cache] });
            expectClose(again.reads[0]!.values[0]!, whole.subarray(cut), tolerance, 'original cache after a fork');
            fork.release();
            fork.release();
            await expect(backend.doForward({ ...batchOf([other], 'right', valueRead), past: [fork] })).rejects.toMatchObject({ code: 'BACKEND_CONTRACT' });
            cache.release();
          }));

        test('prefix scoring', () =>
          withBackend(model, async (backend) => {
            const prm = ProcessRM.fromBackend(backend, createByteBpeTokenizer());
            if (!backend.supportsCache) {
              await expect(prm.prefix('Q')).rejects.toMatchObject({ code: 'UNSUPPORTED_CAPABILITY' });
              return;
            }
            const [problem, solution] = conformancePairs[3]!;
            const steps = solution.trim().split('\n');
            const tolerance = toleranceFor(backend.precision);
            let prefix = await prm.prefix(problem);
            for (let count = 1; count <= steps.length; count++) {
              const next = await prefix.extend(steps[count - 1]!);
              prefix.release();
              prefix = next;
              const full = await prm.stepScores([{ problem, steps: steps.slice(0, count) }]);
              expectClose(prefix.stepScores, full.value.curves[0]!, tolerance, `after ${count} steps`);
            }
            expect(prefix.cachedTokens).toBe(prm.tokenize({ problem, steps }).inputIds.length);
            // Candidates from one prefix, in one batch, each equal to its own full pass.
            const base = await (await prm.prefix(problem)).extend(steps[0]!);
            const candidates = ['In May she sold 24 clips.', 'In May she sold 96 clips, twice as many.'];
            const extended = await base.extendMany(candidates);
            for (const [index, candidate] of candidates.entries()) {
              const full = await prm.stepScores([{ problem, steps: [steps[0]!, candidate] }]);
              expectClose(extended[index]!.stepScores, full.value.curves[0]!, tolerance, `candidate ${index}`);
            }
            expect(base.steps).toEqual([steps[0]]);
            for (const handle of [prefix, base, ...extended]) handle.release();
            await expect(base.extend('x')).rejects.toMatchObject({ code: 'PREFIX_RELEASED' });
          }));

        test('parity with reference', async () => {
          if (!options.createReference) return;
          const reference = await options.createReference(model);
          try {
            await withBackend(model, async (backend) => {
              const ours = await ProcessRM.fromBackend(backend, createByteBpeTokenizer()).prefixScores(conformancePairs);
              const theirs = await ProcessRM.fromBackend(reference, createByteBpeTokenizer()).prefixScores(conformancePairs);
              const tolerance = Math.max(toleranceFor(backend.precision), toleranceFor(reference.precision));
              ours.value.curves.forEach((curve, index) => expectClose(curve, theirs.value.curves[index]!, tolerance, `pair ${index}`));
            });
          } finally {
            await reference.dispose();
          }
        });

        test('dispose', async () => {
          const backend = await options.createBackend(model);
          await backend.dispose();
          await backend.dispose();
          await expect(backend.doForward(batchOf([tokens('a')], 'right', valueRead))).rejects.toMatchObject({ code: 'BACKEND_CONTRACT' });
        });
      });
    }
  });
}
