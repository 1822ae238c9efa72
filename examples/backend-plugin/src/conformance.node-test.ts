// The same kit under node:test: `pnpm test:node` (node --import tsx --test), run in CI by node-test-run.test.ts.
import { describe, it } from 'node:test';
import { nodeTestHarness, runBackendConformance } from '@reward-lens/core/testing';
import { createFloat32Backend } from './index.js';

runBackendConformance({
  harness: nodeTestHarness({ describe, it }, { timeout: 120_000 }),
  label: 'float32 example plugin (node:test)',
  createBackend: async (model) => createFloat32Backend(model),
});
