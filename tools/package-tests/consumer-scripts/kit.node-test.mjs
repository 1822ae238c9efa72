import { describe, it } from 'node:test';
import { createTinyBackend } from '@reward-lens/backend-tiny';
import { nodeTestHarness, runBackendConformance, runGradientConformance } from '@reward-lens/core/testing';
const kept = [
  'spec contract',
  'padding invariance',
  'flags and methods agree',
  'gradient matches finite differences',
  'step gradients are causal',
  'score hvp',
];
const adapter = nodeTestHarness({ describe, it }, { timeout: 300000 });
const harness = {
  describe: adapter.describe,
  test: (name, body) => (kept.includes(name) ? adapter.test(name, body) : undefined),
  skip: (name, reason) => (kept.includes(name) ? adapter.skip(name, reason) : undefined),
};
const createBackend = async (model) => createTinyBackend(model);
runBackendConformance({ harness, createBackend, label: 'installed' });
runGradientConformance({ harness, createBackend, label: 'installed', skip: [{ reason: 'declared in the script', tests: ['score hvp'] }] });
