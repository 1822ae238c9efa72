import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

// The example is what a third party can write: the spec for the backend, the conformance kit for its tests, never /internal.
it('imports reward-lens only through @reward-lens/spec and, in its tests, @reward-lens/core/testing', () => {
  const folder = fileURLToPath(new URL('.', import.meta.url));
  const specifiers = readdirSync(folder)
    .filter((file) => file.endsWith('.ts'))
    .flatMap((file) => [...readFileSync(`${folder}/${file}`, 'utf8').matchAll(/from '(@reward-lens\/[^']+)'/g)].map((match) => match[1]!));
  expect(specifiers.length).toBeGreaterThan(0);
  expect([...new Set(specifiers)].sort()).toEqual(['@reward-lens/core/testing', '@reward-lens/spec']);
});
