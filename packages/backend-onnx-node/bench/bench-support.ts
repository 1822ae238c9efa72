import { createRequire } from 'node:module';
import { describeMachine } from '@reward-lens/bench-harness';
import type { BackendV1 } from '@reward-lens/spec';
import { createByteBpeTokenizer, ProcessRM } from '@reward-lens/core';

export function machineLine(): string {
  const onnxruntimeVersion = (createRequire(import.meta.url)('onnxruntime-node/package.json') as { version: string }).version;
  return describeMachine(`onnxruntime-node ${onnxruntimeVersion}`);
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
