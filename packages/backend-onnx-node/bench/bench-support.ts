import { cpus } from 'node:os';
import { createRequire } from 'node:module';
import { createByteBpeTokenizer, defineDecoderConfig, ProcessRM, type BackendV1 } from '@reward-lens/core';

/** The bench model: hidden 256, 4 layers, 8 heads, intermediate 688 (backend-tiny's bench model). */
export const benchConfig = defineDecoderConfig({
  architecture: 'llama',
  hiddenSize: 256,
  numLayers: 4,
  numHeads: 8,
  numKvHeads: 8,
  intermediateSize: 688,
  vocabSize: 512,
  maxPositions: 1024,
  ropeTheta: 10000,
  rmsNormEps: 1e-5,
  tieWordEmbeddings: true,
  attentionBias: false,
  heads: [{ name: 'value', kind: 'value', weight: 'v_head.weight' }],
});

export function machineLine(): string {
  const onnxruntimeVersion = (createRequire(import.meta.url)('onnxruntime-node/package.json') as { version: string }).version;
  return `machine: ${cpus()[0]?.model ?? 'unknown CPU'}, ${cpus().length} logical cores, Node ${process.version}, onnxruntime-node ${onnxruntimeVersion}`;
}

export async function seconds(work: () => Promise<unknown>): Promise<number> {
  const start = performance.now();
  await work();
  return (performance.now() - start) / 1000;
}

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
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
    timesA.push(await seconds(a));
    timesB.push(await seconds(b));
  }
  return { a: median(timesA), b: median(timesB), ratio: median(timesA.map((time, pair) => time / timesB[pair]!)) };
}

/** A problem and a solution of `steps` arithmetic steps, one per line. */
export function arithmeticPair(seed: number, steps: number): [string, string] {
  const lines: string[] = [];
  let total = seed;
  for (let step = 1; step <= steps; step++) {
    const addend = (seed * 7 + step * 13) % 50;
    lines.push(`Step ${step}: add ${addend} to ${total}, which gives ${total + addend} so far.`);
    total += addend;
  }
  return [`Start from ${seed} and add the numbers given; what is the total?`, lines.join('\n')];
}

export function benchProcessRM(backend: BackendV1, batchSize = 8): ProcessRM {
  return ProcessRM.fromBackend(backend, createByteBpeTokenizer(), { batchSize });
}

export function formatRatio(ratio: number): string {
  return `${ratio.toFixed(2)}×`;
}
