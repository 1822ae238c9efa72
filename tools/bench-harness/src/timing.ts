/** Seconds `work` takes, once. */
export function seconds(work: () => void): number {
  const start = performance.now();
  work();
  return (performance.now() - start) / 1000;
}

/** Seconds an asynchronous `work` takes, once. */
export async function secondsAsync(work: () => Promise<unknown>): Promise<number> {
  const start = performance.now();
  await work();
  return (performance.now() - start) / 1000;
}

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

export interface SideBySide {
  /** Median seconds of each. */
  a: number;
  b: number;
  /** Median over pairs of `a / b`: each pair ran back to back, under the same machine load. */
  ratio: number;
}

/** Runs `a` and `b` alternately `pairs` times, after one warm-up each. */
export async function sideBySide(pairs: number, a: () => Promise<unknown>, b: () => Promise<unknown>): Promise<SideBySide> {
  await a();
  await b();
  const timesA: number[] = [];
  const timesB: number[] = [];
  for (let pair = 0; pair < pairs; pair++) {
    timesA.push(await secondsAsync(a));
    timesB.push(await secondsAsync(b));
  }
  return { a: median(timesA), b: median(timesB), ratio: median(timesA.map((time, pair) => time / timesB[pair]!)) };
}

export function formatRatio(ratio: number): string {
  return `${ratio.toFixed(2)}×`;
}
