import { type BackendV1, InvalidInputError, type DecoderModel } from '@reward-lens/spec';

import type { ConformanceHarness } from './conformance-harness.js';
import { SuiteBuilder, type ConformanceSkipList } from './conformance-suite.js';
import { registerOwnModelSuite, type OwnModelConformance } from './own-model-suite.js';
import { createReferenceBackend } from './reference/reference-backend.js';
import { registerSeededSuite } from './seeded-model-suite.js';

interface CommonConformanceOptions {
  /** The test framework's functions: `vitestHarness({ describe, it })`, `nodeTestHarness(...)`, `jestHarness(...)` or `recordingHarness().harness`. */
  harness: ConformanceHarness;
  /** Tests not run, each group with its reason; they are reported as skipped, with the reason. */
  skip?: ConformanceSkipList;
  /** Label in the suite's name. */
  label?: string;
}

/** A backend that loads any decoder weights: the kit seeds them, covering every head shape. */
export interface SeededConformanceOptions extends CommonConformanceOptions {
  /** Creates the backend under test for decoder weights. */
  createBackend: (model: DecoderModel) => Promise<BackendV1>;
  /**
   * What parity is checked against, within the tolerance of the coarser declared precision.
   * Default: the float64 oracle (`createReferenceBackend`), written without any backend's code.
   */
  createReference?: (model: DecoderModel) => Promise<BackendV1>;
}

/** A backend that brings its own model: the kit checks the invariants it can, and the author's reference outputs. */
export interface OwnModelConformanceOptions extends CommonConformanceOptions {
  ownModel: OwnModelConformance;
}

export type ConformanceOptions = SeededConformanceOptions | OwnModelConformanceOptions;

/**
 * The suite every backend runs, on any test framework. With seeded weights (`createBackend(model)`):
 * the spec contract, the PRM invariants (last step = outcome, one pass per solution, padding
 * invariance on either side, seeded determinism), the KV cache, and parity of every head shape
 * (hidden-layer heads, QKV biases, tied and untied LM heads, value heads, column reads,
 * inner-layer reads, hidden states) with the float64 oracle, or with `createReference`. With
 * `ownModel`: the invariants that hold for any model, plus the outputs the author supplies.
 * A test that does not apply (a capability the backend lacks) is reported as skipped, with the reason.
 *
 * @example
 * import { describe, it } from 'vitest';
 * runBackendConformance({ harness: vitestHarness({ describe, it }), createBackend: (model) => createMyBackend(model) });
 */
export function runBackendConformance(options: ConformanceOptions): void {
  if (!options?.harness) {
    throw new InvalidInputError(
      "runBackendConformance needs a harness: harness: vitestHarness({ describe, it }) with vitest's functions, nodeTestHarness({ describe, it }) with node:test's, or jestHarness({ describe, it })",
    );
  }
  const suite = new SuiteBuilder(options.harness, options.skip);
  const own = 'ownModel' in options;
  const title = `backend conformance${options.label ? `: ${options.label}` : ''}${own ? ' (its own model)' : ''}`;
  suite.describe(title, () => {
    if ('ownModel' in options) {
      registerOwnModelSuite(suite, options.ownModel);
      return;
    }
    registerSeededSuite(suite, {
      createBackend: options.createBackend,
      createReference: options.createReference ?? (async (model) => createReferenceBackend(model)),
      referenceName: options.createReference ? 'the given reference' : 'the float64 reference',
    });
  });
}
