import type { BackendV1, ForwardRequestV1 } from '@reward-lens/spec';
import { formatRatio, sideBySide } from '@reward-lens/bench-harness';
import { arithmeticPair, benchProcessRM } from './bench-support.js';

function singleRow(ids: Int32Array, readPositions: number[]): ForwardRequestV1 {
  return {
    batchSize: 1,
    sequenceLength: ids.length,
    inputIds: ids,
    attentionMask: new Uint8Array(ids.length).fill(1),
    reads: [{ kind: 'head', head: 'value', positions: [readPositions] }],
  };
}

/**
 * (c) Step 16 of a 16-step solution: score the new step on the cached prefix (steps 1-15,
 * `past` + `returnCache`, as a generator scoring step by step would) against re-scoring the
 * whole prefix without a cache, reading every step boundary.
 */
export async function prefixCache(backends: readonly { label: string; backend: BackendV1 }[]): Promise<void> {
  const pair = arithmeticPair(5, 16);
  const tokenized = benchProcessRM(backends[0]!.backend).tokenize(pair);
  const ids = tokenized.inputIds;
  const cut = tokenized.readPositions[14]! + 1;
  const newTokens = ids.length - cut;
  console.log(
    `\n(c) incremental prefix scoring at step 16 of 16 (${ids.length} tokens; cached prefix ${cut}, new step ${newTokens}), medians of 9 alternated pairs`,
  );
  for (const { label, backend } of backends) {
    const prefix = await backend.doForward({ ...singleRow(ids.slice(0, cut), [cut - 1]), returnCache: true });
    const cache = prefix.caches![0]!;
    const withCache = async () => {
      const result = await backend.doForward({ ...singleRow(ids.slice(cut), [newTokens - 1]), past: [cache], returnCache: true });
      result.caches![0]!.release();
    };
    const rescore = () => backend.doForward(singleRow(ids, tokenized.readPositions));
    const { a: cached, b: full, ratio } = await sideBySide(9, withCache, rescore);
    cache.release();
    console.log(
      `  ${label.padEnd(18)} with cache ${(cached * 1000).toFixed(2).padStart(8)} ms   whole prefix ${(full * 1000).toFixed(2).padStart(8)} ms   whole/cached ${formatRatio(1 / ratio)}`,
    );
  }
}
