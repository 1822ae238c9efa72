import { type BackendV1, type ReadRequestV1, formatCapabilities } from '@reward-lens/spec';

import { check, checkEqual, expectClose } from './conformance-assert.js';
import { toleranceFor } from './conformance-fixtures.js';
import { batchOf, seededIds } from './conformance-requests.js';
import { everyHeadRead, requireCapability, withBackend, type SuiteBuilder } from './conformance-suite.js';
import { checkBadRequests, checkCapabilityRefusals, checkDispose, checkKvCache } from './shared-checks.js';

/** An output the author computed elsewhere (the model's own reference implementation, say) for the kit to match. */
export interface ConformanceReferenceOutput {
  /** Names the output in failures. */
  label?: string;
  /** One sequence's token ids (no padding). */
  inputIds: readonly number[];
  /** What is read: a head (optionally some columns, optionally at an inner layer) or a layer's hidden states. */
  read: { kind: 'head'; head: string; columns?: readonly number[]; layer?: number } | { kind: 'hidden'; layer: number };
  /** Indices into `inputIds`. */
  positions: readonly number[];
  /** `positions.length × width` values, position-major. */
  expected: ArrayLike<number>;
  /** Default: the backend's precision's tolerance (`toleranceFor`). */
  tolerance?: number;
}

/** A backend that brings its own model: a fixed model, a remote server, weights the kit cannot seed. */
export interface OwnModelConformance {
  /** Creates the backend under test on its model (once per test; the kit disposes it). */
  createBackend: () => Promise<BackendV1>;
  /** Sequences of token ids the invariants run on (at least two, of different lengths). Default: seeded ids from the vocabulary. */
  inputs?: readonly (readonly number[])[];
  /** Outputs the backend must reproduce. Without them, the "reference outputs" test is reported as skipped. */
  references?: readonly ConformanceReferenceOutput[];
}

/** Keeps wide heads (a 150k-token LM head on a remote server) to a few columns in the invariant checks. */
const FULL_WIDTH_LIMIT = 4096;

function headReads(backend: BackendV1, positions: number[][]): ReadRequestV1[] {
  return everyHeadRead(backend, positions).map((read) =>
    read.kind === 'head' && backend.info.heads.find((head) => head.name === read.head)!.width > FULL_WIDTH_LIMIT
      ? { ...read, columns: [0, 1, 2, backend.info.heads.find((head) => head.name === read.head)!.width - 1] }
      : read,
  );
}

function inputsFor(backend: BackendV1, own: OwnModelConformance): Int32Array[] {
  if (own.inputs) {
    check(own.inputs.length >= 2, 'ownModel.inputs needs at least two sequences');
    return own.inputs.map((ids) => Int32Array.from(ids));
  }
  const { vocabSize, maxPositions } = backend.info;
  return [17, 6, 11].map((length, index) => seededIds(Math.min(length, maxPositions), vocabSize, 100 + index));
}

/** The invariants the kit can check on any model, plus the author's reference outputs. */
export function registerOwnModelSuite(suite: SuiteBuilder, own: OwnModelConformance): void {
  const run = <Result>(use: (backend: BackendV1, inputs: Int32Array[]) => Promise<Result>) =>
    withBackend(own.createBackend, (backend) => use(backend, inputsFor(backend, own)));

  suite.test('spec contract', () =>
    run(async (backend, inputs) => {
      const { info } = backend;
      check(backend.specificationVersion === 'v1', `specificationVersion is ${String(backend.specificationVersion)}, expected v1`);
      check(/^[a-z0-9-]+$/.test(backend.name), `name "${backend.name}" is not lower-case letters, digits and dashes`);
      check(['fp32', 'fp16', 'bf16'].includes(backend.precision), `precision "${backend.precision}" is not fp32, fp16 or bf16`);
      check(formatCapabilities(backend.capabilities) !== 'NONE', 'the backend declares no capability');
      for (const key of ['vocabSize', 'hiddenSize', 'numLayers', 'maxPositions'] as const) {
        check(Number.isInteger(info[key]) && info[key] > 0, `info.${key} is ${info[key]}, not a positive integer`);
      }
      check(new Set(info.heads.map((head) => head.name)).size === info.heads.length, 'two heads share a name');
      for (const head of info.heads) check(Number.isInteger(head.width) && head.width > 0, `head "${head.name}" width ${head.width}`);
      const ids = inputs[0]!;
      const reads = headReads(backend, [[0, ids.length - 1]]);
      const result = await backend.doForward(batchOf([ids], 'right', () => reads));
      checkEqual(result.reads.length, reads.length, 'one result per read');
      reads.forEach((read, index) => {
        const width = read.kind === 'head' ? (read.columns?.length ?? info.heads[index]!.width) : info.hiddenSize;
        checkEqual(result.reads[index]!.width, width, `read ${index} width`);
        check(result.reads[index]!.values[0] instanceof Float32Array, `read ${index} values are not a Float32Array`);
        checkEqual(result.reads[index]!.values[0]!.length, 2 * width, `read ${index} values per row`);
      });
    }),
  );

  suite.test('rejects bad requests', () => run((backend, inputs) => checkBadRequests(backend, longerFirst(inputs))));

  suite.test('capability checks', () => run((backend, inputs) => checkCapabilityRefusals(backend, inputs[1]!)));

  suite.test('deterministic', () =>
    run(async (backend, inputs) => {
      const request = batchOf(inputs.slice(0, 2), 'right', (positions) => headReads(backend, positions));
      const first = await backend.doForward(request);
      const second = await backend.doForward(request);
      first.reads.forEach((read, index) => checkEqual(second.reads[index]!.values, read.values, `read ${index}, second run`));
    }),
  );

  suite.test('padding invariance', () =>
    run(async (backend, inputs) => {
      const [long, short] = longerFirst(inputs);
      const reads = (positions: number[][]) => headReads(backend, positions);
      const alone = (await backend.doForward(batchOf([short], 'right', reads))).reads;
      for (const side of ['left', 'right'] as const) {
        const batched = (await backend.doForward(batchOf([long, short, long], side, reads))).reads;
        alone.forEach((read, index) =>
          expectClose(batched[index]!.values[1]!, read.values[0]!, toleranceFor(backend.precision), `read ${index}, short row padded on the ${side}`),
        );
      }
    }),
  );

  suite.test('last step equals outcome', () =>
    run(async (backend, inputs) => {
      // Steps read at several positions in one pass; the last read is the outcome read alone.
      const ids = longerFirst(inputs)[0];
      const last = ids.length - 1;
      const steps = [Math.floor(last / 3), Math.floor((2 * last) / 3), last];
      const reads = (positions: number[][]) => headReads(backend, positions);
      const curve = (await backend.doForward(batchOf([ids], 'right', reads, () => steps))).reads;
      const outcome = (await backend.doForward(batchOf([ids], 'right', reads, () => [last]))).reads;
      outcome.forEach((read, index) => {
        const width = read.width;
        expectClose(curve[index]!.values[0]!.subarray(2 * width), read.values[0]!, toleranceFor(backend.precision), `read ${index}: last step vs outcome`);
      });
    }),
  );

  suite.test('linear readout', (context) =>
    run(async (backend, inputs) => {
      requireCapability(context, backend, 'LINEAR_READOUT');
      const { numLayers } = backend.info;
      const final = (await backend.doForward(batchOf([inputs[0]!], 'right', (positions) => headReads(backend, positions)))).reads;
      const atLast = (
        await backend.doForward(batchOf([inputs[0]!], 'right', (positions) => headReads(backend, positions).map((read) => ({ ...read, layer: numLayers }))))
      ).reads;
      final.forEach((read, index) => checkEqual(atLast[index]!.values, read.values, `read ${index} at layer ${numLayers} vs the final read`));
    }),
  );

  suite.test('kv cache', (context) =>
    run(async (backend, inputs) => {
      requireCapability(context, backend, 'KV cache');
      const [full, other] = longerFirst(inputs);
      const cut = Math.max(1, Math.floor(full.length / 2));
      check(cut + other.length <= backend.info.maxPositions, 'the inputs are too long for a cache check within maxPositions');
      await checkKvCache(backend, full, other, cut, (positions) => headReads(backend, positions));
    }),
  );

  suite.test('reference outputs', (context) =>
    run(async (backend, inputs) => {
      const references = own.references ?? [];
      if (references.length === 0) context.skip('no reference outputs were supplied (ownModel.references)');
      const seed = longerFirst(inputs)[0];
      for (const [index, reference] of references.entries()) {
        const label = reference.label ?? `reference ${index}`;
        const ids = Int32Array.from(reference.inputIds);
        // A neighbour longer than the sequence (when the model allows), so that its row is padded.
        const neighbourLength = Math.min(ids.length + 3, backend.info.maxPositions);
        const neighbour = Int32Array.from({ length: neighbourLength }, (_, position) => seed[position % seed.length]!);
        const read = (positions: number[][]): ReadRequestV1 =>
          reference.read.kind === 'hidden'
            ? { kind: 'hidden', layer: reference.read.layer, positions }
            : {
                kind: 'head',
                head: reference.read.head,
                positions,
                ...(reference.read.columns ? { columns: reference.read.columns } : {}),
                ...(reference.read.layer === undefined ? {} : { layer: reference.read.layer }),
              };
        const tolerance = reference.tolerance ?? toleranceFor(backend.precision);
        const alone = await backend.doForward(batchOf([ids], 'right', read, () => [...reference.positions]));
        expectClose(alone.reads[0]!.values[0]!, reference.expected, tolerance, label);
        // Padded beside a neighbour, on either side, the same values.
        for (const side of ['left', 'right'] as const) {
          const batched = await backend.doForward(
            batchOf([neighbour, ids], side, read, (row, length) => (row === 1 ? [...reference.positions] : [length - 1])),
          );
          expectClose(batched.reads[0]!.values[1]!, reference.expected, tolerance, `${label}, padded on the ${side}`);
        }
      }
    }),
  );

  suite.test('dispose', () =>
    withBackend(own.createBackend, async (probe) => {
      const ids = inputsFor(probe, own)[1]!;
      const head = probe.info.heads[0];
      const read = (positions: number[][]): ReadRequestV1 =>
        head ? { kind: 'head', head: head.name, positions } : { kind: 'hidden', layer: probe.info.numLayers, positions };
      await checkDispose(own.createBackend, ids, read);
    }),
  );
}

/** The two first inputs, the longer one first. */
function longerFirst(inputs: readonly Int32Array[]): [Int32Array, Int32Array] {
  const [a, b] = [inputs[0]!, inputs[1]!];
  check(a.length !== b.length, 'the first two inputs must differ in length (padding checks need a longer neighbour)');
  return a.length > b.length ? [a, b] : [b, a];
}
