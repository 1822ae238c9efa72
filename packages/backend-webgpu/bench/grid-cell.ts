import { median } from '@reward-lens/bench-harness';
import type { BackendV1, ForwardRequestV1 } from '@reward-lens/spec';

/** One forward of `batchSize` rows of `length` tokens, the value head read at every position. */
export function forwardRequest(batchSize: number, length: number, vocabSize: number): ForwardRequestV1 {
  const cells = batchSize * length;
  return {
    batchSize,
    sequenceLength: length,
    inputIds: Int32Array.from({ length: cells }, (_, index) => (index * 7919) % vocabSize),
    attentionMask: new Uint8Array(cells).fill(1),
    reads: [{ kind: 'head', head: 'value', positions: Array.from({ length: batchSize }, () => Array.from({ length }, (_, index) => index)) }],
  };
}

/**
 * A CPU backend the GPU is compared with. Its big cells would take minutes, so each run is
 * predicted from the cells measured before (milliseconds per token, scaled up with the length
 * for attention) and skipped, with the reason kept for the table's notes, when it would take
 * longer than `capMs` or start after `deadline`.
 */
export class Reference {
  readonly #measured: { length: number; msPerToken: number }[] = [];
  readonly skipped: string[] = [];

  constructor(
    readonly label: string,
    readonly backend: BackendV1,
    readonly capMs: number,
    readonly deadline: number,
  ) {}

  /**
   * Predicted milliseconds per run, or undefined before the first measurement. Time per token is
   * taken as linear in the length (attention), through the slowest cells of the two measured
   * lengths nearest below; with one length measured, as proportional to the length (an upper bound).
   */
  predictMs(batchSize: number, length: number): number | undefined {
    const perLength = new Map<number, number>();
    for (const entry of this.#measured) perLength.set(entry.length, Math.max(perLength.get(entry.length) ?? 0, entry.msPerToken));
    const points = [...perLength].sort((a, b) => a[0] - b[0]);
    if (points.length === 0) return undefined;
    const below = points.filter(([measured]) => measured <= length);
    const [near, nearest] = below.length >= 2 ? below.slice(-2) : points.length >= 2 ? points.slice(0, 2) : [undefined, points[0]!];
    const perToken =
      near === undefined
        ? nearest![1] * Math.max(1, length / nearest![0])
        : Math.max(nearest![1], nearest![1] + (Math.max(0, nearest![1] - near[1]) / (nearest![0] - near[0])) * (length - nearest![0]));
    return batchSize * length * perToken;
  }

  /** Why the cell is skipped, or undefined to run it (and then `record` its time). */
  skipReason(batchSize: number, length: number): string | undefined {
    const predicted = this.predictMs(batchSize, length);
    let reason: string | undefined;
    if (performance.now() > this.deadline) reason = 'past the time set for the CPU references';
    else if (predicted !== undefined && predicted > this.capMs) reason = `~${(predicted / 1000).toFixed(0)} s a run, over ${(this.capMs / 1000).toFixed(0)} s`;
    if (reason) this.skipped.push(`${batchSize}×${length} (${reason})`);
    return reason;
  }

  record(batchSize: number, length: number, ms: number): void {
    this.#measured.push({ length, msPerToken: ms / (batchSize * length) });
  }
}

export interface CellTimes {
  /** Per run, milliseconds; run `i` of every backend ran back to back with run `i` of the others. */
  samples: number[];
  values: Float32Array[];
}

/**
 * Times the backends on one forward, alternating them run by run: one warm-up each, then
 * `repeats[i]` timed runs of backend `i` (a backend with 0 is not run at all).
 */
export async function timeCell(backends: readonly BackendV1[], forward: ForwardRequestV1, repeats: readonly number[]): Promise<(CellTimes | undefined)[]> {
  const times = backends.map((_, index) => (repeats[index]! > 0 ? { samples: [] as number[], values: [] as Float32Array[] } : undefined));
  const run = async (index: number) => {
    const start = performance.now();
    const result = await backends[index]!.doForward(forward);
    const ms = performance.now() - start;
    times[index]!.values = result.reads[0]!.values;
    return ms;
  };
  for (const [index, time] of times.entries()) if (time) await run(index);
  for (let round = 0; round < Math.max(...repeats); round++) {
    for (const [index, time] of times.entries()) if (time && round < repeats[index]!) time.samples.push(await run(index));
  }
  return times;
}

/** Median over the runs both made of `reference / ours`: how many times faster ours is. */
export function speedUp(ours: CellTimes, reference: CellTimes): number {
  const pairs = Math.min(ours.samples.length, reference.samples.length);
  return median(Array.from({ length: pairs }, (_, run) => reference.samples[run]! / ours.samples[run]!));
}

export function maxDifference(a: readonly Float32Array[], b: readonly Float32Array[]): number {
  let difference = 0;
  a.forEach((row, index) => row.forEach((value, position) => (difference = Math.max(difference, Math.abs(value - b[index]![position]!)))));
  return difference;
}
