import { describe, expect, it } from 'vitest';
import { type BackendV1, Capability, type DecoderModel } from '@reward-lens/spec';

import { ConformanceAssertionError } from './conformance-assert.js';
import { conformanceConfigs } from './conformance-fixtures.js';
import { runGradientConformance, type GradientConformanceOptions, type GradientConformanceTestName } from './gradient-conformance.js';
import { withoutCapabilities } from '../../test/support/mutants.js';
import { recordingHarness } from './recording-harness.js';
import { createReferenceBackend } from './reference/reference-backend.js';

// The gradient kit itself, with no test framework (recordingHarness). Backends that claim the
// flags run it under their own framework (backend-tiny: gradient-conformance.test.ts, vitest).

const gradientTests: GradientConformanceTestName[] = [
  'backward reads equal forward reads',
  'gradient matches finite differences',
  'gradient adds over rows and ignores padding',
  'input-embedding gradient is the embedding row gradient',
  'input embeddings replace the token embeddings',
  'integrated gradients add up',
  'rejects bad gradient requests',
  'step gradients are causal',
];
const hvpTests: GradientConformanceTestName[] = [
  'hvp matches finite differences of the gradient',
  'hvp is symmetric',
  'hvp carries the loss curvature',
  'score hvp',
];

async function runKit(createBackend: (model: DecoderModel) => Promise<BackendV1>, options: Partial<GradientConformanceOptions> = {}) {
  const recorder = recordingHarness();
  runGradientConformance({ harness: recorder.harness, label: 'kit', createBackend, ...options });
  return recorder.run();
}

describe('runGradientConformance', () => {
  it('needs a harness, and says how to pass one', () => {
    expect(() => runGradientConformance({ createBackend: async (model) => createReferenceBackend(model) } as GradientConformanceOptions)).toThrow(
      /runGradientConformance needs a harness: harness: vitestHarness\(\{ describe, it \}\).*nodeTestHarness/,
    );
  });

  it('a backend without GRADIENTS and HVP: the flags test passes, the others are skipped with the reason, declared skips with theirs', async () => {
    const report = await runKit(async (model) => createReferenceBackend(model), {
      skip: [{ reason: 'declared here', tests: ['integrated gradients add up'] }],
    });
    const outcomes = report.outcomes.map((outcome) => [
      outcome.name.split(' > ').slice(1).join(' > '),
      outcome.status,
      'reason' in outcome ? outcome.reason : undefined,
    ]);
    const expected = conformanceConfigs.flatMap(({ label }) => [
      [`${label} > flags and methods agree`, 'passed', undefined],
      ...gradientTests.map((name) =>
        name === 'integrated gradients add up'
          ? [`${label} > ${name}`, 'skipped', 'declared here']
          : [`${label} > ${name}`, 'skipped', 'backend "reference" does not declare GRADIENTS'],
      ),
      ...hvpTests.map((name) => [`${label} > ${name}`, 'skipped', 'backend "reference" does not declare HVP']),
    ]);
    expect(outcomes.sort()).toEqual(expected.sort());
    expect(report.outcomes.every((outcome) => outcome.name.startsWith('gradient conformance: kit > '))).toBe(true);
  });

  it('a backend claiming GRADIENTS without doBackward fails the flags test with a thrown assertion', async () => {
    const claimsGradients = async (model: DecoderModel) => {
      const backend = withoutCapabilities(createReferenceBackend(model), 0, { cache: false });
      return { ...backend, capabilities: backend.capabilities | Capability.GRADIENTS };
    };
    const report = await runKit(claimsGradients, { skip: [{ reason: 'not part of this check', tests: [...gradientTests, ...hvpTests] }] });
    expect(report.failed).toBe(conformanceConfigs.length);
    const failure = report.outcomes.find((outcome) => outcome.status === 'failed');
    expect(failure?.name).toMatch(/flags and methods agree$/);
    const error = failure?.status === 'failed' ? failure.error : undefined;
    expect(error).toBeInstanceOf(ConformanceAssertionError);
    expect(String(error)).toMatch(/doBackward is present exactly with GRADIENTS: got false, expected true/);
  });
});
