import { type BackendV1, type ReadRequestV1, Capability, type CapabilityName } from '@reward-lens/spec';

import type { ConformanceHarness, ConformanceTestContext } from './conformance-harness.js';

/** The kit's tests, by the names `skip` takes. */
export const conformanceTestNames = [
  'spec contract',
  'rejects bad requests',
  'capability checks',
  'deterministic',
  'padding invariance',
  'last step equals outcome',
  'one forward pass per solution',
  'seeded weights',
  'parity: heads',
  'parity: columns',
  'parity: inner layers',
  'parity: hidden states',
  'parity: prefix scores',
  'linear readout',
  'kv cache',
  'prefix scoring',
  'reference outputs',
  'dispose',
] as const;

export type ConformanceTestName = (typeof conformanceTestNames)[number];

/** Tests not to run, each group with its reason (reported as skipped, with the reason). */
export type ConformanceSkipList = readonly { reason: string; tests: readonly ConformanceTestName[] }[];

/**
 * Registers tests on a harness, honouring the declared skips. `Name` is the suite's set of test
 * names (the backend kit's by default; the gradient kit has its own).
 */
export class SuiteBuilder<Name extends string = ConformanceTestName> {
  readonly #skipped = new Map<Name, string>();

  constructor(
    readonly harness: ConformanceHarness,
    skip: readonly { reason: string; tests: readonly Name[] }[] = [],
  ) {
    for (const group of skip) for (const test of group.tests) this.#skipped.set(test, group.reason);
  }

  describe(name: string, body: () => void): void {
    this.harness.describe(name, body);
  }

  /** A test named `name`, or `name: detail` when one name covers several tests (one per head). */
  test(name: Name, body: (context: ConformanceTestContext) => Promise<void>, detail?: string): void {
    const title = detail === undefined ? name : `${name}: ${detail}`;
    const reason = this.#skipped.get(name);
    if (reason !== undefined) this.harness.skip(title, reason);
    else this.harness.test(title, body);
  }
}

/** Creates a backend, runs `use`, and disposes it whatever happens. */
export async function withBackend<Result>(create: () => Promise<BackendV1>, use: (backend: BackendV1) => Promise<Result>): Promise<Result> {
  const backend = await create();
  try {
    return await use(backend);
  } finally {
    await backend.dispose();
  }
}

/** Skips the running test, with the reason, when the backend lacks a capability. */
export function requireCapability(context: ConformanceTestContext, backend: BackendV1, capability: CapabilityName | 'KV cache'): void {
  const has = capability === 'KV cache' ? backend.supportsCache : (backend.capabilities & Capability[capability]) !== 0;
  if (!has) context.skip(`backend "${backend.name}" does not declare ${capability}`);
}

/** One read of every head the backend lists, at the same positions. */
export function everyHeadRead(backend: BackendV1, positions: number[][], extra: Partial<Extract<ReadRequestV1, { kind: 'head' }>> = {}): ReadRequestV1[] {
  return backend.info.heads.map((head) => ({ kind: 'head' as const, head: head.name, positions, ...extra }));
}
