import { cpus } from 'node:os';

/** Seconds `work` takes, once. */
export function seconds(work: () => void): number {
  const start = performance.now();
  work();
  return (performance.now() - start) / 1000;
}

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

export function describeMachine(): string {
  const cpu = cpus()[0]?.model ?? 'unknown CPU';
  return `machine: ${cpu}, ${cpus().length} logical cores, Node ${process.version} (V8 ${process.versions.v8}), ${process.platform}/${process.arch}, single-threaded`;
}
