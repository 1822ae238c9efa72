import { type BackendV1, type ReadRequestV1, Capability } from '@reward-lens/spec';

import { checkCacheLengths } from './cache-length-checks.js';
import { checkEqual, checkRejects, expectClose } from './conformance-assert.js';
import { toleranceFor } from './conformance-fixtures.js';
import { batchOf } from './conformance-requests.js';

/** Checks both kit modes make: the spec's typed errors for malformed requests. `rows` are two rows, the second shorter. */
export async function checkBadRequests(backend: BackendV1, rows: [Int32Array, Int32Array]): Promise<void> {
  const head = backend.info.heads[0];
  const read = (positions: number[][]): ReadRequestV1 =>
    head ? { kind: 'head', head: head.name, positions } : { kind: 'hidden', layer: backend.info.numLayers, positions };
  const good = batchOf(rows, 'right', read);
  const contract = { code: 'BACKEND_CONTRACT' };
  const shortLength = rows[1].length;
  const cases: [string, typeof good, RegExp][] = [
    [
      'a token id outside the vocabulary',
      { ...good, inputIds: good.inputIds.map((id, index) => (index === 1 ? backend.info.vocabSize : id)) },
      /outside the vocabulary/,
    ],
    ['inputIds of the wrong length', { ...good, inputIds: good.inputIds.slice(1) }, /inputIds has/],
    ['a read of a padding position', { ...good, reads: [{ ...read([[0], [shortLength]]) }] }, /padding/],
    ['an unknown head', { ...good, reads: [{ kind: 'head', head: 'nope', positions: [[0], [0]] }] }, /no head named "nope"/],
  ];
  if (head)
    cases.push(['a column outside the head', { ...good, reads: [{ kind: 'head', head: head.name, positions: [[0], [0]], columns: [head.width] }] }, /column/]);
  for (const [label, request, pattern] of cases) await checkRejects(backend.doForward(request), { ...contract, message: pattern }, label);
}

/** A backend lacking a capability refuses its requests with UNSUPPORTED_CAPABILITY naming it; one that has it serves them. */
export async function checkCapabilityRefusals(backend: BackendV1, row: Int32Array): Promise<void> {
  const { numLayers, hiddenSize } = backend.info;
  const hidden = batchOf([row], 'right', (positions) => ({ kind: 'hidden', layer: 1, positions }));
  if (backend.capabilities & Capability.ACTIVATIONS) checkEqual((await backend.doForward(hidden)).reads[0]!.width, hiddenSize, 'hidden state width');
  else await checkRejects(backend.doForward(hidden), { code: 'UNSUPPORTED_CAPABILITY', capability: 'ACTIVATIONS' }, 'a hidden-state read without ACTIVATIONS');
  const head = backend.info.heads[0];
  if (head && numLayers > 1) {
    const inner = batchOf([row], 'right', (positions) => ({ kind: 'head', head: head.name, positions, layer: 1 }));
    if (backend.capabilities & Capability.LINEAR_READOUT) checkEqual((await backend.doForward(inner)).reads[0]!.width, head.width, 'inner-layer read width');
    else
      await checkRejects(
        backend.doForward(inner),
        { code: 'UNSUPPORTED_CAPABILITY', capability: 'LINEAR_READOUT' },
        'an inner-layer read without LINEAR_READOUT',
      );
  }
  const anyRead = (positions: number[][]): ReadRequestV1 =>
    head ? { kind: 'head', head: head.name, positions } : { kind: 'hidden', layer: numLayers, positions };
  const cached = { ...batchOf([row], 'right', anyRead), returnCache: true };
  if (backend.supportsCache) {
    const result = await backend.doForward(cached);
    checkEqual(result.caches?.length, 1, 'caches returned for one row');
    checkEqual(result.caches![0]!.length, row.length, 'cache length');
    result.caches![0]!.release();
  } else {
    await checkRejects(backend.doForward(cached), { code: 'UNSUPPORTED_CAPABILITY' }, 'returnCache without a cache');
  }
}

/**
 * The KV cache: a prefix extended by the rest equals one full pass, a fork continues
 * differently without disturbing the original, and a released handle is refused.
 */
export async function checkKvCache(
  backend: BackendV1,
  full: Int32Array,
  other: Int32Array,
  cut: number,
  reads: (positions: number[][]) => ReadRequestV1[],
): Promise<void> {
  const tolerance = toleranceFor(backend.precision);
  const compare = (actual: Float32Array[], expected: (index: number) => Float32Array, label: string) =>
    actual.forEach((values, index) => expectClose(values, expected(index), tolerance, `${label}, read ${index}`));
  const rowsOf = (result: { reads: { values: Float32Array[]; width: number }[] }) => result.reads.map((read) => read.values[0]!);
  const wholeResult = await backend.doForward(batchOf([full], 'right', reads));
  const widths = wholeResult.reads.map((read) => read.width);
  const whole = rowsOf(wholeResult);
  const tail = (values: Float32Array, index: number, from: number) => values.subarray(from * widths[index]!);

  const prefix = await backend.doForward({ ...batchOf([full.slice(0, cut)], 'right', reads), returnCache: true });
  const cache = prefix.caches![0]!;
  checkEqual(cache.length, cut, 'cache length after the prefix');
  const fork = cache.fork();
  checkEqual(fork.length, cut, 'fork length');
  const rest = await backend.doForward({ ...batchOf([full.slice(cut)], 'right', reads), past: [cache], returnCache: true });
  checkEqual(rest.caches![0]!.length, full.length, 'cache length after the rest');
  compare(rowsOf(rest), (index) => tail(whole[index]!, index, cut), 'extended prefix vs one full pass');

  const forked = rowsOf(await backend.doForward({ ...batchOf([other], 'right', reads), past: [fork] }));
  const joined = Int32Array.from([...full.slice(0, cut), ...other]);
  const reference = rowsOf(await backend.doForward(batchOf([joined], 'right', reads)));
  compare(forked, (index) => tail(reference[index]!, index, cut), 'forked continuation');
  const again = rowsOf(await backend.doForward({ ...batchOf([full.slice(cut)], 'right', reads), past: [cache] }));
  compare(again, (index) => tail(whole[index]!, index, cut), 'original cache after a fork');

  fork.release();
  fork.release();
  await checkRejects(backend.doForward({ ...batchOf([other], 'right', reads), past: [fork] }), { code: 'BACKEND_CONTRACT' }, 'a released handle');
  cache.release();
  rest.caches![0]!.release();
  await checkCacheLengths(backend, { full, other, cut }, reads);
}

/** After `dispose()` (twice: idempotent), a forward is a contract error. */
export async function checkDispose(create: () => Promise<BackendV1>, row: Int32Array, read: (positions: number[][]) => ReadRequestV1): Promise<void> {
  const backend = await create();
  await backend.dispose();
  await backend.dispose();
  await checkRejects(backend.doForward(batchOf([row], 'right', read)), { code: 'BACKEND_CONTRACT' }, 'a forward after dispose');
}
