import { describe, it } from 'vitest';
import { runBackendConformance } from '../run-backend-conformance.js';
import { vitestHarness } from '../conformance-harness.js';
import { createReferenceBackend } from './reference-backend.js';

// The oracle passes its own kit (parity with itself is trivial; every other test is not).
runBackendConformance({
  harness: vitestHarness({ describe, it }),
  label: 'the float64 reference',
  createBackend: async (model) => createReferenceBackend(model),
});
