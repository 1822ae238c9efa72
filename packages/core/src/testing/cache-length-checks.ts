import type { BackendV1, ReadRequestV1 } from '@reward-lens/spec';

import { checkEqual, checkRejects, expectClose } from './conformance-assert.js';
import { toleranceFor } from './conformance-fixtures.js';
import { batchOf } from './conformance-requests.js';

/**
 * `cacheLengths`: a backend that supports it runs and reads a whole row but keeps only its first
 * `cut` tokens, and that cache continues exactly as a cache of the first `cut` tokens would, twice
 * over (the tokens run after the kept ones must not leak into a continuation); out-of-range lengths
 * are contract errors. A backend that does not support it refuses the field, naming it.
 */
export async function checkCacheLengths(
  backend: BackendV1,
  rows: { full: Int32Array; other: Int32Array; cut: number },
  reads: (positions: number[][]) => ReadRequestV1[],
): Promise<void> {
  const { full, other, cut } = rows;
  const request = { ...batchOf([full], 'right', reads), returnCache: true, cacheLengths: [cut] };
  if (backend.supportsCacheLengths !== true) {
    if (backend.supportsCache) await checkRejects(backend.doForward(request), { code: 'UNSUPPORTED_CAPABILITY' }, 'cacheLengths without support');
    return;
  }
  const tolerance = toleranceFor(backend.precision);
  const rowsOf = (result: { reads: { values: Float32Array[] }[] }) => result.reads.map((read) => read.values[0]!);
  const whole = await backend.doForward(batchOf([full], 'right', reads));
  const kept = await backend.doForward(request);
  rowsOf(kept).forEach((values, index) => expectClose(values, whole.reads[index]!.values[0]!, tolerance, `reads of a row kept at ${cut}, read ${index}`));
  const cache = kept.caches![0]!;
  checkEqual(cache.length, cut, 'cache length with cacheLengths');
  const joined = Int32Array.from([...full.slice(0, cut), ...other]);
  const reference = (await backend.doForward(batchOf([joined], 'right', reads))).reads;
  for (const attempt of ['first', 'second']) {
    const continued = await backend.doForward({ ...batchOf([other], 'right', reads), past: [cache], returnCache: true });
    rowsOf(continued).forEach((values, index) =>
      expectClose(
        values,
        reference[index]!.values[0]!.subarray(cut * reference[index]!.width),
        tolerance,
        `${attempt} continuation of a kept cache, read ${index}`,
      ),
    );
    checkEqual(continued.caches![0]!.length, cut + other.length, 'continued cache length');
    continued.caches![0]!.release();
  }
  const contract = { code: 'BACKEND_CONTRACT' };
  await checkRejects(backend.doForward({ ...request, cacheLengths: [full.length + 1] }), contract, 'a cache length past the row');
  await checkRejects(backend.doForward({ ...request, returnCache: false }), contract, 'cacheLengths without returnCache');
  await checkRejects(
    backend.doForward({ ...batchOf([full.slice(cut)], 'right', reads), past: [cache], returnCache: true, cacheLengths: [cut - 1] }),
    contract,
    'a cache length shorter than the past',
  );
  cache.release();
}
