import { describe, expect, it } from 'vitest';
import { type BackendV1, createRandomDecoder, tinyDecoderConfig } from '@reward-lens/spec';

import { conformanceConfigs } from './conformance-fixtures.js';
import type { ConformanceReferenceOutput } from './own-model-suite.js';
import { ignoringPadding } from '../../test/support/mutants.js';
import { recordingHarness, type ConformanceReport } from './recording-harness.js';
import { createReferenceBackend } from './reference/reference-backend.js';
import { referenceForward } from './reference/reference-decoder.js';
import { referenceHead } from './reference/reference-head.js';
import { runBackendConformance } from './run-backend-conformance.js';

// A "fixed model" backend: it loads one model the kit cannot seed. Its author supplies outputs
// computed elsewhere (here by the float64 oracle itself, straight from the weights).
const fixed = createRandomDecoder({ seed: 99, config: conformanceConfigs[1]!.config });
const ids = [5, 17, 300, 42, 42, 9, 1];
const states = referenceForward(fixed, ids).states;
const references: ConformanceReferenceOutput[] = [
  {
    label: 'the Qwen-style head at three positions',
    inputIds: ids,
    read: { kind: 'head', head: 'prm' },
    positions: [6, 2, 4],
    expected: [6, 2, 4].flatMap((position) => referenceHead(fixed, states[3]![position]!, 'prm')),
  },
  {
    label: 'two LM columns at layer 1',
    inputIds: ids,
    read: { kind: 'head', head: 'lm', columns: [43, 10], layer: 1 },
    positions: [3],
    expected: referenceHead(fixed, states[1]![3]!, 'lm', [43, 10]),
  },
  { label: 'hidden state at layer 2', inputIds: ids, read: { kind: 'hidden', layer: 2 }, positions: [0], expected: states[2]![0]! },
];

async function runOwnModel(createBackend: () => Promise<BackendV1>, supplied = references): Promise<ConformanceReport> {
  const recorder = recordingHarness();
  runBackendConformance({ harness: recorder.harness, ownModel: { createBackend, references: supplied } });
  return recorder.run();
}

const statusOf = (report: ConformanceReport, name: string) => report.outcomes.find((outcome) => outcome.name.endsWith(` > ${name}`))?.status;

describe('bring your own model: invariants plus the outputs the author supplies', () => {
  it('a correct backend passes every test', async () => {
    const report = await runOwnModel(async () => createReferenceBackend(fixed));
    expect(report.outcomes.filter((outcome) => outcome.status !== 'passed')).toEqual([]);
    expect(report.outcomes.map((outcome) => outcome.name.split(' > ').at(-1))).toEqual([
      'spec contract',
      'rejects bad requests',
      'capability checks',
      'deterministic',
      'padding invariance',
      'last step equals outcome',
      'linear readout',
      'kv cache',
      'reference outputs',
      'dispose',
    ]);
  });

  it('a backend on other weights fails the reference outputs, whatever its invariants', async () => {
    const report = await runOwnModel(async () => createReferenceBackend(createRandomDecoder({ seed: 100, config: fixed.config })));
    expect(statusOf(report, 'reference outputs')).toBe('failed');
    expect(statusOf(report, 'padding invariance')).toBe('passed');
  });

  it('a backend that attends to padding fails padding invariance', async () => {
    const report = await runOwnModel(async () => ignoringPadding(createReferenceBackend(fixed)));
    expect(statusOf(report, 'padding invariance')).toBe('failed');
    const failure = report.outcomes.find((outcome) => outcome.name.endsWith('padding invariance'));
    expect(failure?.status === 'failed' && String(failure.error)).toMatch(/padded on the left/);
  });

  it('without reference outputs, that test is skipped with its reason', async () => {
    const report = await runOwnModel(async () => createReferenceBackend(createRandomDecoder({ seed: 1, config: tinyDecoderConfig })), []);
    const outcome = report.outcomes.find((candidate) => candidate.name.endsWith('reference outputs'));
    expect(outcome).toMatchObject({ status: 'skipped', reason: 'no reference outputs were supplied (ownModel.references)' });
    expect(report.failed).toBe(0);
  });
});
