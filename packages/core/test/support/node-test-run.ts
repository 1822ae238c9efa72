// Run by conformance-harness.test.ts as `node --import tsx --test-reporter=tap <this file>`:
// the kit under node:test, through its adapter, on a backend that lacks a cache.
import { describe, it } from 'node:test';
import { Capability } from '@reward-lens/spec';
import { nodeTestHarness, type ConformanceHarness } from '../../src/testing/conformance-harness.js';
import { withoutCapabilities } from './mutants.js';
import { createReferenceBackend } from '../../src/testing/reference/reference-backend.js';
import { runBackendConformance } from '../../src/testing/run-backend-conformance.js';

const kept = ['spec contract', 'kv cache', 'deterministic'];
const adapter = nodeTestHarness({ describe, it }, { timeout: 60_000 });
// Only a few of the kit's tests, to keep the run short.
const harness: ConformanceHarness = {
  describe: adapter.describe,
  test: (name, body) => (kept.includes(name) ? adapter.test(name, body) : undefined),
  skip: (name, reason) => (kept.includes(name) ? adapter.skip(name, reason) : undefined),
};

runBackendConformance({
  harness,
  label: 'node:test',
  createBackend: async (model) => withoutCapabilities(createReferenceBackend(model), Capability.ACTIVATIONS, { cache: false }),
  skip: [{ reason: 'declared in the fixture', tests: ['deterministic'] }],
});
