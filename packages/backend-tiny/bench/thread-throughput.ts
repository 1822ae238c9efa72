import { benchDecoderConfig42M, median, secondsAsync, threadCounts } from '@reward-lens/bench-harness';
import { createRandomDecoder, type BackendV1, type ForwardRequestV1 } from '@reward-lens/spec';
import { createTinyBackend } from '../src/index.js';

function request(rows: number, length: number): ForwardRequestV1 {
  const cells = rows * length;
  return {
    batchSize: rows,
    sequenceLength: length,
    inputIds: Int32Array.from({ length: cells }, (_, index) => (index * 7919) % benchDecoderConfig42M.vocabSize),
    attentionMask: new Uint8Array(cells).fill(1),
    reads: [{ kind: 'head', head: 'value', positions: Array.from({ length: rows }, () => Array.from({ length }, (_, index) => index)) }],
  };
}

/**
 * Forward tokens/s of the 42M model on 1, 2, 4, ... threads (up to the cores), side by side:
 * rounds alternate between the thread counts, and each ratio is the median over rounds of the
 * one-thread time over that count's, measured back to back under the same load.
 */
export async function compareThreads(rounds = 5): Promise<void> {
  const model = createRandomDecoder({ seed: 1, config: benchDecoderConfig42M });
  const counts = threadCounts();
  const backends = new Map<number, BackendV1>(counts.map((threads) => [threads, createTinyBackend(model, { threads })]));
  for (const [rows, length, label] of [
    [8, 256, 'batch 8 × 256'],
    [1, 256, 'one record of 256 tokens'],
  ] as const) {
    const big = request(rows, length);
    for (const backend of backends.values()) await backend.doForward(big);
    const times = new Map<number, number[]>(counts.map((threads) => [threads, []]));
    for (let round = 0; round < rounds; round++) {
      for (const threads of counts) times.get(threads)!.push(await secondsAsync(() => backends.get(threads)!.doForward(big)));
    }
    const single = times.get(1)!;
    console.log(`\nforward on threads, ${label}, value head at every position (median of ${rounds} alternating rounds):`);
    for (const threads of counts) {
      const seconds = median(times.get(threads)!);
      const ratio = median(single.map((time, round) => time / times.get(threads)![round]!));
      console.log(
        `  ${String(threads).padStart(2)} thread${threads === 1 ? ' ' : 's'} ${seconds.toFixed(3).padStart(7)} s  ${((rows * length) / seconds).toFixed(0).padStart(6)} tokens/s  ${ratio.toFixed(2)}× one thread`,
      );
    }
  }
  await Promise.all([...backends.values()].map((backend) => backend.dispose()));
}
