import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { publishablePackages, repositoryRoot } from './workspace.js';

// First-party backends are built on what a third party can import: core's public entries. Its
// `/internal` entry has no semver promise, so a backend built on it could break on a minor release.
const firstPartyBackends = [
  'packages/backend-tiny',
  'packages/backend-onnx-node',
  'packages/backend-onnx-web',
  'packages/backend-webgpu',
  'packages/onnx-backend-common',
  'packages/onnx-export',
];

/** The package's published source: `src` without tests and test helpers. */
function sourceFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return entry.name === 'test-support' ? [] : sourceFiles(path);
    return /\.ts$/.test(entry.name) && !/\.test\.ts$/.test(entry.name) ? [path] : [];
  });
}

describe('first-party backends use only the public API of core', () => {
  it.each(firstPartyBackends)('%s imports core only through @reward-lens/core and @reward-lens/core/node', (directory) => {
    const files = sourceFiles(join(repositoryRoot, directory, 'src'));
    expect(files.length).toBeGreaterThan(0);
    const offending = files.flatMap((file) =>
      [...readFileSync(file, 'utf8').matchAll(/from '(@reward-lens\/core(?:\/[^']*)?)'/g)]
        .map((match) => match[1]!)
        .filter((specifier) => specifier !== '@reward-lens/core' && specifier !== '@reward-lens/core/node')
        .map((specifier) => `${relative(repositoryRoot, file)}: ${specifier}`),
    );
    expect(offending).toEqual([]);
  });
});

describe('published test helpers', () => {
  it("@reward-lens/core/testing exports nothing that resolves this repository's files (sharedDataPath lives in the private @reward-lens/test-data)", () => {
    const testingEntry = readFileSync(join(repositoryRoot, 'packages/core/src/testing/index.ts'), 'utf8');
    expect(testingEntry).toMatch(/runBackendConformance/);
    expect(testingEntry).not.toMatch(/sharedDataPath|shared\/data/);
    for (const manifest of publishablePackages().map(
      (entry) => entry.manifest as { dependencies?: Record<string, string>; peerDependencies?: Record<string, string> },
    )) {
      expect(Object.keys({ ...manifest.dependencies, ...manifest.peerDependencies })).not.toContain('@reward-lens/test-data');
    }
  });
});
