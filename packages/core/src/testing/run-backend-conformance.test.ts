import { describe, expect, it } from 'vitest';
import type { BackendV1, DecoderModel } from '@reward-lens/spec';

import { conformanceTestNames, type ConformanceTestName } from './conformance-suite.js';
import { dropHiddenLayers, readoutCapabilities, swapGateAndUp, withoutCapabilities, wrongRopeBase } from '../../test/support/mutants.js';
import { recordingHarness, type ConformanceReport } from './recording-harness.js';
import { createReferenceBackend } from './reference/reference-backend.js';
import { runBackendConformance } from './run-backend-conformance.js';

const parityTests: ConformanceTestName[] = ['parity: heads', 'parity: columns', 'parity: inner layers', 'parity: hidden states', 'parity: prefix scores'];

/** Runs the kit on a backend (no reference named: the float64 oracle) and returns its report. */
async function runKit(createBackend: (model: DecoderModel) => Promise<BackendV1>, only?: ConformanceTestName[]): Promise<ConformanceReport> {
  const recorder = recordingHarness();
  const skip = only ? [{ reason: 'not part of this check', tests: conformanceTestNames.filter((name) => !only.includes(name)) }] : [];
  runBackendConformance({ harness: recorder.harness, createBackend, skip });
  return recorder.run();
}

const failedNames = (report: ConformanceReport) => report.outcomes.filter((outcome) => outcome.status === 'failed').map((outcome) => outcome.name);
const errorOf = (report: ConformanceReport, fragment: string) => {
  const outcome = report.outcomes.find((candidate) => candidate.status === 'failed' && candidate.name.includes(fragment));
  return outcome?.status === 'failed' ? String(outcome.error) : undefined;
};

describe('the conformance kit catches broken backends (parity defaults to the float64 oracle)', () => {
  it('gate_proj and up_proj swapped: every parity test fails, the invariants still pass', async () => {
    const report = await runKit(async (model) => createReferenceBackend(swapGateAndUp(model)));
    const failed = failedNames(report);
    for (const config of ['llama', 'qwen2']) {
      for (const test of parityTests)
        expect(
          failed.some((name) => name.includes(config) && name.includes(test)),
          `${config}: ${test}`,
        ).toBe(true);
    }
    expect(failed.every((name) => name.includes('parity: '))).toBe(true);
    expect(report.passed).toBeGreaterThan(20);
    expect(errorOf(report, 'parity: heads')).toMatch(/vs reference/);
  });

  it("a dropped hidden layer: the Qwen2.5-Math-PRM head's parity fails, the other heads pass", async () => {
    const report = await runKit(async (model) => createReferenceBackend(dropHiddenLayers(model)), ['parity: heads', 'parity: inner layers']);
    const failed = failedNames(report);
    expect(failed.some((name) => name.includes('parity: heads: prm (hidden layer + ReLU'))).toBe(true);
    expect(failed.some((name) => name.includes('qwen2') && name.includes('parity: inner layers'))).toBe(true);
    expect(failed.filter((name) => name.includes('parity: heads'))).toHaveLength(1);
    expect(report.outcomes.filter((outcome) => outcome.status === 'passed').length).toBeGreaterThan(5);
  });

  it('a wrong RoPE base: the parity of every head fails', async () => {
    const report = await runKit(async (model) => createReferenceBackend(wrongRopeBase(model)), ['parity: heads']);
    expect(report.passed).toBe(0);
    expect(report.failed).toBe(7);
  });

  // The oracle passing its own kit (every test, none skipped) is reference/reference-backend.test.ts, under vitest itself.
});

describe('a test that does not apply is skipped with its reason, never passed', () => {
  it('a backend without ACTIVATIONS, LINEAR_READOUT and a cache', async () => {
    const report = await runKit(
      async (model) => withoutCapabilities(createReferenceBackend(model), readoutCapabilities, { cache: false }),
      ['capability checks', 'parity: inner layers', 'parity: hidden states', 'linear readout', 'kv cache', 'prefix scoring'],
    );
    expect(failedNames(report)).toEqual([]);
    const skipped = report.outcomes.flatMap((outcome) => (outcome.status === 'skipped' ? [outcome] : []));
    const notApplicable = skipped.filter((outcome) => outcome.reason !== 'not part of this check');
    const skippedTests = new Set(notApplicable.map((outcome) => outcome.name.split(' > ').at(-1)));
    expect([...skippedTests].sort()).toEqual(['kv cache', 'linear readout', 'parity: hidden states', 'parity: inner layers', 'prefix scoring']);
    expect(notApplicable).toHaveLength(10);
    expect(report.passed).toBe(2);
    for (const outcome of notApplicable) expect(outcome.reason).toMatch(/^backend "reference" does not declare (ACTIVATIONS|LINEAR_READOUT|KV cache)$/);
  });

  it('declared skips are reported with their reason, one per test they name', async () => {
    const recorder = recordingHarness();
    const slow = conformanceTestNames.filter((name) => name !== 'parity: heads' && name !== 'dispose');
    runBackendConformance({
      harness: recorder.harness,
      createBackend: async (model) => createReferenceBackend(model),
      skip: [
        { reason: 'checked elsewhere', tests: ['parity: heads'] },
        // Two groups with one reason: each test they name is reported once.
        { reason: 'slow', tests: slow.filter((name) => name.startsWith('parity: ')) },
        { reason: 'slow', tests: slow.filter((name) => !name.startsWith('parity: ')) },
      ],
    });
    const report = await recorder.run();
    const declared = report.outcomes.flatMap((outcome) => (outcome.status === 'skipped' ? [outcome] : []));
    expect(declared.filter((outcome) => outcome.reason === 'checked elsewhere').map((outcome) => outcome.name.split(' > ').at(-1))).toEqual([
      'parity: heads: value (value, bias)',
      'parity: heads: classifier (2 classes)',
      'parity: heads: lm (LM head, tied to the embeddings)',
      'parity: heads: value (value)',
      'parity: heads: classifier (2 classes, bias)',
      'parity: heads: prm (hidden layer + ReLU, 2 classes, bias)',
      'parity: heads: lm (LM head, untied lm_head.weight)',
    ]);
    expect(report.outcomes.filter((outcome) => outcome.status === 'passed').map((outcome) => outcome.name.split(' > ').at(-1))).toEqual(['dispose', 'dispose']);
    expect(report.failed).toBe(0);
  });

  it('without a harness, a clear error names the adapters', () => {
    expect(() => runBackendConformance({ createBackend: async (model: DecoderModel) => createReferenceBackend(model) } as never)).toThrow(
      /vitestHarness.*nodeTestHarness.*jestHarness/,
    );
  });
});
