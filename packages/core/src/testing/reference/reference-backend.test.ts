import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { vitestHarness } from '../conformance-harness.js';
import { runBackendConformance } from '../run-backend-conformance.js';
import { createReferenceBackend } from './reference-backend.js';

// The oracle passes its own kit (parity with itself is trivial; every other test is not).
runBackendConformance({
  harness: vitestHarness({ describe, it }),
  label: 'the float64 reference',
  createBackend: async (model) => createReferenceBackend(model),
});

describe('the float64 oracle stays independent', () => {
  it("imports no backend, only the spec's types and errors, and not the head description the backends compile (it reads the HeadSpec itself)", () => {
    const folder = fileURLToPath(new URL('.', import.meta.url));
    const imports = readdirSync(folder)
      .filter((file) => file.endsWith('.ts') && !file.endsWith('.test.ts'))
      .flatMap((file) => [...readFileSync(`${folder}/${file}`, 'utf8').matchAll(/from '([^']+)'/g)].map((match) => match[1]!));
    expect(imports.length).toBeGreaterThan(0);
    for (const specifier of imports) {
      expect(specifier, specifier).not.toMatch(/@reward-lens\/(?!spec$)|head-description/);
    }
  });
});
