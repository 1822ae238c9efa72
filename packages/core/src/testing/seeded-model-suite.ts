import {
  type BackendV1,
  type ForwardRequestV1,
  type ReadRequestV1,
  Capability,
  formatCapabilities,
  headWidth,
  type DecoderConfig,
  type HeadSpec,
  type DecoderModel,
  createRandomDecoder,
} from '@reward-lens/spec';

import { ProcessRM } from '../process-rm/process-rm.js';
import { createByteBpeTokenizer } from '@reward-lens/tokenizers';
import { check, checkEqual, checkRejects, expectClose } from './conformance-assert.js';
import { conformanceConfigs, conformancePairs, toleranceFor, weightRoundingFor } from './conformance-fixtures.js';
import { batchOf, tokens, valueRead } from './conformance-requests.js';
import { everyHeadRead, requireCapability, withBackend, type SuiteBuilder } from './conformance-suite.js';
import { countingBackend } from './counting-backend.js';
import { checkBadRequests, checkCapabilityRefusals, checkDispose, checkKvCache } from './shared-checks.js';

export interface SeededSuiteOptions {
  createBackend: (model: DecoderModel) => Promise<BackendV1>;
  /** Parity is checked against this; the float64 oracle (`createReferenceBackend`) when absent. */
  createReference: (model: DecoderModel) => Promise<BackendV1>;
  /** How the reference is named in failures. */
  referenceName: string;
}

/** How a head is built, for test names: `prm (hidden layer + ReLU, 2 classes, bias)`. */
export function headShape(config: DecoderConfig, head: HeadSpec): string {
  if (head.kind === 'lm') return `${head.name} (LM head, ${config.tieWordEmbeddings ? 'tied to the embeddings' : 'untied lm_head.weight'})`;
  const parts = [head.hidden ? 'hidden layer + ReLU' : undefined, head.kind === 'value' ? 'value' : `${headWidth(config, head)} classes`];
  if (head.bias) parts.push('bias');
  return `${head.name} (${parts.filter(Boolean).join(', ')})`;
}

/** Runs one request on the backend and on the reference and compares every read. */
async function compareWithReference(backend: BackendV1, reference: BackendV1, request: ForwardRequestV1, label: string): Promise<void> {
  const ours = await backend.doForward(request);
  const theirs = await reference.doForward(request);
  const tolerance = Math.max(toleranceFor(backend.precision), toleranceFor(reference.precision));
  request.reads.forEach((read, index) => {
    const what =
      read.kind === 'hidden' ? `hidden states at layer ${read.layer}` : `head "${read.head}"${read.layer === undefined ? '' : ` at layer ${read.layer}`}`;
    checkEqual(ours.reads[index]!.width, theirs.reads[index]!.width, `${label}, ${what}: width`);
    theirs.reads[index]!.values.forEach((expected, row) =>
      expectClose(ours.reads[index]!.values[row]!, expected, tolerance, `${label}, ${what}, row ${row} vs ${reference.name}`),
    );
  });
}

/** The seeded-weights suite: every test of the kit, on each conformance config. */
export function registerSeededSuite(suite: SuiteBuilder, options: SeededSuiteOptions): void {
  for (const { label, config } of conformanceConfigs) {
    suite.describe(label, () => registerConfig(suite, options, config));
  }
}

function registerConfig(suite: SuiteBuilder, options: SeededSuiteOptions, config: DecoderConfig): void {
  const model = createRandomDecoder({ seed: 1234, config });
  const run = <Result>(use: (backend: BackendV1) => Promise<Result>) => withBackend(() => options.createBackend(model), use);
  const parity = (use: (backend: BackendV1, reference: BackendV1) => Promise<void>) =>
    run((backend) =>
      withBackend(
        () => options.createReference(model),
        (reference) => use(backend, reference),
      ),
    );
  const tokenizer = createByteBpeTokenizer();
  const shortRows = [tokens('First, 2+2=4.'), tokens('Then, 4*3=12. Finally, 12-5=7.')];

  suite.test('spec contract', () =>
    run(async (backend) => {
      check(backend.specificationVersion === 'v1', `specificationVersion is ${String(backend.specificationVersion)}, expected v1`);
      check(/^[a-z0-9-]+$/.test(backend.name), `name "${backend.name}" is not lower-case letters, digits and dashes`);
      check(['fp32', 'fp16', 'bf16'].includes(backend.precision), `precision "${backend.precision}" is not fp32, fp16 or bf16`);
      check(formatCapabilities(backend.capabilities) !== 'NONE', 'the backend declares no capability');
      checkEqual(backend.info.vocabSize, config.vocabSize, 'info.vocabSize');
      checkEqual(backend.info.hiddenSize, config.hiddenSize, 'info.hiddenSize');
      checkEqual(backend.info.numLayers, config.numLayers, 'info.numLayers');
      check(backend.info.maxPositions <= config.maxPositions, `info.maxPositions ${backend.info.maxPositions} exceeds the model's ${config.maxPositions}`);
      for (const head of config.heads) {
        const info = backend.info.heads.find((candidate) => candidate.name === head.name);
        check(info !== undefined, `info.heads lacks "${head.name}"`);
        checkEqual(info.kind, head.kind, `head "${head.name}" kind`);
        checkEqual(info.width, headWidth(config, head), `head "${head.name}" width`);
      }
      const ids = tokens('1+1=2');
      const result = await backend.doForward(batchOf([ids], 'right', (positions) => everyHeadRead(backend, positions)));
      checkEqual(result.reads.length, backend.info.heads.length, 'one result per read');
      backend.info.heads.forEach((head, index) => {
        const read = result.reads[index]!;
        checkEqual(read.width, head.width, `head "${head.name}" result width`);
        check(read.values[0] instanceof Float32Array, `head "${head.name}" values are not a Float32Array`);
        checkEqual(read.values[0]!.length, ids.length * head.width, `head "${head.name}" values per row`);
      });
      check(result.caches === undefined, 'caches returned without returnCache');
    }),
  );

  suite.test('rejects bad requests', () => run((backend) => checkBadRequests(backend, [tokens('abc'), tokens('a')])));

  suite.test('capability checks', () =>
    run(async (backend) => {
      await checkCapabilityRefusals(backend, tokens('x'));
      const prm = ProcessRM.fromBackend(countingBackend(backend), tokenizer);
      const pair = conformancePairs[0]!;
      for (const [flag, call] of [
        ['PREFIX_SCORES', () => prm.prefixScores([pair])],
        ['STEP_SCORES', () => prm.stepScores([pair])],
        ['LINEAR_READOUT', () => prm.stepScores([pair], { layer: 1 })],
        ['ACTIVATIONS', () => prm.stepActivations([pair], { layer: 1 })],
      ] as const) {
        if ((backend.capabilities & Capability[flag]) === 0)
          await checkRejects(call, { code: 'UNSUPPORTED_CAPABILITY', capability: flag }, `ProcessRM without ${flag}`);
        else await call();
      }
      if (!backend.supportsCache) await checkRejects(() => prm.prefix('Q'), { code: 'UNSUPPORTED_CAPABILITY' }, 'ProcessRM.prefix without a cache');
    }),
  );

  suite.test('deterministic', () =>
    run(async (backend) => {
      const request = batchOf([tokens('Then, 4*3=12.'), tokens('x')], 'right', (positions) => everyHeadRead(backend, positions));
      const first = await backend.doForward(request);
      const second = await backend.doForward(request);
      first.reads.forEach((read, index) => checkEqual(second.reads[index]!.values, read.values, `head "${backend.info.heads[index]!.name}", second run`));
    }),
  );

  suite.test('padding invariance', () =>
    run(async (backend) => {
      const short = tokens('First, 2+2=4.');
      const long = tokens('A much longer neighbour that forces padding on the short row, twice over.');
      const reads = (positions: number[][]) => everyHeadRead(backend, positions);
      const alone = (await backend.doForward(batchOf([short], 'right', reads))).reads;
      for (const side of ['left', 'right'] as const) {
        const batched = (await backend.doForward(batchOf([long, short, long], side, reads))).reads;
        alone.forEach((read, index) =>
          expectClose(
            batched[index]!.values[1]!,
            read.values[0]!,
            toleranceFor(backend.precision),
            `head "${backend.info.heads[index]!.name}", short row padded on the ${side}`,
          ),
        );
      }
    }),
  );

  suite.test('last step equals outcome', () =>
    run(async (backend) => {
      const prm = ProcessRM.fromBackend(backend, tokenizer);
      const steps = await prm.stepScores(conformancePairs);
      const outcome = await prm.score(conformancePairs);
      conformancePairs.forEach((pair, index) => {
        const curve = steps.value.curves[index]!;
        checkEqual(curve.length, steps.value.stepCounts[index], `pair ${index}: curve length`);
        checkEqual(curve[curve.length - 1], outcome.value.values[index], `pair ${index}: last step vs outcome`);
        const read = steps.value.steps[index]!;
        checkEqual(read[read.length - 1]!.readTokenIndex, prm.tokenize(pair).inputIds.length - 1, `pair ${index}: last read position`);
      });
      checkEqual(steps.value.stepCounts, [3, 3, 1, 4], 'step counts');
      checkEqual(steps.trust, 'EXPLORATORY', 'trust');
    }),
  );

  suite.test('one forward pass per solution', () =>
    run(async (backend) => {
      const counted = countingBackend(backend);
      const result = await ProcessRM.fromBackend(counted, tokenizer, { batchSize: 1 }).stepScores(conformancePairs);
      checkEqual(counted.forwardCalls, conformancePairs.length, 'forward passes with batchSize 1');
      checkEqual(
        result.value.stepCounts.reduce((sum, count) => sum + count, 0),
        11,
        'steps read',
      );
      const batched = countingBackend(backend);
      await ProcessRM.fromBackend(batched, tokenizer, { batchSize: 8 }).stepScores(conformancePairs);
      checkEqual(batched.forwardCalls, 1, 'forward passes with batchSize 8');
    }),
  );

  suite.test('seeded weights', async () => {
    const read = async (seed: number) =>
      withBackend(
        () => options.createBackend(createRandomDecoder({ seed, config })),
        async (backend) => (await ProcessRM.fromBackend(backend, tokenizer).stepScores([conformancePairs[0]!])).value.curves[0]!,
      );
    const first = await read(7);
    checkEqual(await read(7), first, 'the same seed twice');
    const other = await read(8);
    check(
      other.some((value, index) => value !== first[index]),
      'seeds 7 and 8 gave the same scores',
    );
  });

  for (const head of config.heads) {
    suite.test(
      'parity: heads',
      () =>
        parity(async (backend, reference) => {
          const read = (positions: number[][]): ReadRequestV1 => ({ kind: 'head', head: head.name, positions });
          await compareWithReference(backend, reference, batchOf(shortRows, 'left', read), `every position, ${options.referenceName}`);
        }),
      headShape(config, head),
    );
  }

  suite.test('parity: columns', () =>
    parity(async (backend, reference) => {
      const reads = (positions: number[][]): ReadRequestV1[] =>
        config.heads.flatMap((head) => {
          const width = headWidth(config, head);
          // Chosen LM tokens (a repeat, the last id, out of order); class 1 alone (the Qwen read) and reversed.
          const columnSets = head.kind === 'lm' ? [[9, 0, width - 1, 9, 200]] : width === 1 ? [[0]] : [[1], [1, 0]];
          return columnSets.map((columns) => ({ kind: 'head' as const, head: head.name, positions, columns }));
        });
      await compareWithReference(
        backend,
        reference,
        batchOf(shortRows, 'right', reads, (_, length) => [length - 1, 2, 0]),
        'columns',
      );
    }),
  );

  suite.test('parity: inner layers', (context) =>
    parity(async (backend, reference) => {
      requireCapability(context, backend, 'LINEAR_READOUT');
      const reads = (positions: number[][]): ReadRequestV1[] =>
        Array.from({ length: config.numLayers }, (_, layer) =>
          config.heads.map((head) => ({
            kind: 'head' as const,
            head: head.name,
            positions,
            layer,
            ...(head.kind === 'lm' ? { columns: [3, 100, config.vocabSize - 1] } : {}),
          })),
        ).flat();
      await compareWithReference(backend, reference, batchOf(shortRows, 'right', reads), 'inner-layer read (final norm, then the head)');
    }),
  );

  suite.test('parity: hidden states', (context) =>
    parity(async (backend, reference) => {
      requireCapability(context, backend, 'ACTIVATIONS');
      const reads = (positions: number[][]): ReadRequestV1[] =>
        Array.from({ length: config.numLayers + 1 }, (_, layer) => ({ kind: 'hidden' as const, layer, positions }));
      await compareWithReference(backend, reference, batchOf(shortRows, 'left', reads), 'hidden states before the final norm');
      // Layer 0 is the embedding row itself, whatever the reference says.
      const ids = tokens('2+2=4');
      const embeddings = (await backend.doForward(batchOf([ids], 'right', (positions) => ({ kind: 'hidden', layer: 0, positions })))).reads[0]!;
      const table = model.tensors.get('model.embed_tokens.weight')!;
      const first = ids[1]!;
      const row = table.subarray(first * config.hiddenSize, (first + 1) * config.hiddenSize);
      // Weights held quantized or in 16 bits come back within their rounding of the row's largest value.
      const largest = row.reduce((most, value) => Math.max(most, Math.abs(value)), 0);
      const tolerance = toleranceFor(backend.precision) + weightRoundingFor(backend.info.weightDtype) * largest;
      expectClose(embeddings.values[0]!.subarray(config.hiddenSize, 2 * config.hiddenSize), row, tolerance, 'layer 0 is the embedding row');
    }),
  );

  suite.test('parity: prefix scores', () =>
    parity(async (backend, reference) => {
      const ours = await ProcessRM.fromBackend(backend, tokenizer).prefixScores(conformancePairs);
      const theirs = await ProcessRM.fromBackend(reference, tokenizer).prefixScores(conformancePairs);
      const tolerance = Math.max(toleranceFor(backend.precision), toleranceFor(reference.precision));
      ours.value.curves.forEach((curve, index) => expectClose(curve, theirs.value.curves[index]!, tolerance, `pair ${index} vs ${reference.name}`));
    }),
  );

  suite.test('linear readout', (context) =>
    run(async (backend) => {
      requireCapability(context, backend, 'LINEAR_READOUT');
      const prm = ProcessRM.fromBackend(backend, tokenizer);
      const final = (await prm.stepScores([conformancePairs[0]!])).value.curves[0]!;
      const atLast = (await prm.stepScores([conformancePairs[0]!], { layer: config.numLayers })).value.curves[0]!;
      checkEqual(atLast, final, `a read at layer ${config.numLayers} vs the final read`);
      const inner = (await prm.stepScores([conformancePairs[0]!], { layer: 1 })).value.curves[0]!;
      checkEqual(inner.length, final.length, 'inner-layer curve length');
      check(
        inner.some((value, index) => value !== final[index]),
        'a read at layer 1 equals the final read',
      );
    }),
  );

  suite.test('kv cache', (context) =>
    run(async (backend) => {
      requireCapability(context, backend, 'KV cache');
      const full = tokens('First, 2+2=4.\nThen, 4*3=12.\nFinally, 12-5=7.');
      const other = tokens('Then, 4*4=16.').slice(1);
      await checkKvCache(backend, full, other, 9, (positions) => everyHeadRead(backend, positions));
    }),
  );

  suite.test('prefix scoring', (context) =>
    run(async (backend) => {
      requireCapability(context, backend, 'KV cache');
      const prm = ProcessRM.fromBackend(backend, tokenizer);
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
      // The cache holds the tokens a next step keeps (the byte-level BPE rewrites the final "." as
      // ".\n" when a step follows), and the next step runs from there: nothing before, nothing twice.
      const ids = prm.tokenize({ problem, steps }).inputIds;
      const longer = prm.tokenize({ problem, steps: [...steps, 'So she sold 72 clips.'] }).inputIds;
      let kept = 0;
      while (kept < ids.length && ids[kept] === longer[kept]) kept++;
      checkEqual(prefix.tokenCount, ids.length, 'prefix tokens');
      checkEqual(prefix.cachedTokens, kept, 'cached tokens: those the next step keeps');
      const after = await prefix.extend('So she sold 72 clips.');
      checkEqual(after.tokensRun, longer.length - kept, 'tokens run by the next step');
      const afterFull = await prm.stepScores([{ problem, steps: [...steps, 'So she sold 72 clips.'] }]);
      expectClose(after.stepScores, afterFull.value.curves[0]!, tolerance, 'after a step that rewrites the cached end');
      after.release();
      // Candidates from one prefix, in one batch, each equal to its own full pass.
      const base = await (await prm.prefix(problem)).extend(steps[0]!);
      const candidates = ['In May she sold 24 clips.', 'In May she sold 96 clips, twice as many.'];
      const extended = await base.extendMany(candidates);
      for (const [index, candidate] of candidates.entries()) {
        const full = await prm.stepScores([{ problem, steps: [steps[0]!, candidate] }]);
        expectClose(extended[index]!.stepScores, full.value.curves[0]!, tolerance, `candidate ${index}`);
      }
      checkEqual(base.steps, [steps[0]], 'the base prefix after extendMany');
      for (const handle of [prefix, base, ...extended]) handle.release();
      await checkRejects(() => base.extend('x'), { code: 'PREFIX_RELEASED' }, 'extending a released prefix');
    }),
  );

  suite.test('dispose', () => checkDispose(() => options.createBackend(model), tokens('a'), valueRead(config.heads[0]!.name)));
}
