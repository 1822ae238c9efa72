import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { publishablePackages, repositoryRoot } from './workspace.js';

// First-party backends are built on what a third party builds on: @reward-lens/spec. Core is for
// their tests (the conformance kit) only; onnx-export's model-folder export still reads folders
// through core's Node entry.
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

const allowedCoreImports: Record<string, string[]> = { 'packages/onnx-export': ['@reward-lens/core', '@reward-lens/core/node'] };

describe('first-party backends are built on @reward-lens/spec', () => {
  it.each(firstPartyBackends)('%s imports no part of core in its published source (onnx-export: its folder export only)', (directory) => {
    const files = sourceFiles(join(repositoryRoot, directory, 'src'));
    expect(files.length).toBeGreaterThan(0);
    const offending = files.flatMap((file) =>
      [...readFileSync(file, 'utf8').matchAll(/from '(@reward-lens\/core(?:\/[^']*)?)'/g)]
        .map((match) => match[1]!)
        .filter((specifier) => !(allowedCoreImports[directory] ?? []).includes(specifier))
        .map((specifier) => `${relative(repositoryRoot, file)}: ${specifier}`),
    );
    expect(offending).toEqual([]);
  });

  it.each(firstPartyBackends.filter((directory) => directory !== 'packages/onnx-export'))('%s depends on spec, not on core', (directory) => {
    const manifest = JSON.parse(readFileSync(join(repositoryRoot, directory, 'package.json'), 'utf8')) as {
      dependencies?: Record<string, string>;
      peerDependencies?: Record<string, string>;
    };
    expect(Object.keys(manifest.dependencies ?? {})).toContain('@reward-lens/spec');
    expect(Object.keys({ ...manifest.dependencies, ...manifest.peerDependencies })).not.toContain('@reward-lens/core');
  });
});

describe("a third-party backend's install", () => {
  const manifestOf = (directory: string) =>
    JSON.parse(readFileSync(join(repositoryRoot, directory, 'package.json'), 'utf8')) as {
      dependencies?: Record<string, string>;
      peerDependencies?: Record<string, string>;
      optionalDependencies?: Record<string, string>;
    };

  it('@reward-lens/spec has no runtime dependencies of any kind', () => {
    const { dependencies, peerDependencies, optionalDependencies } = manifestOf('packages/spec');
    expect({ ...dependencies, ...peerDependencies, ...optionalDependencies }).toEqual({});
  });

  it('the example plugin depends on @reward-lens/spec alone', () => {
    const { dependencies, peerDependencies, optionalDependencies } = manifestOf('examples/backend-plugin');
    expect(Object.keys({ ...dependencies, ...peerDependencies, ...optionalDependencies })).toEqual(['@reward-lens/spec']);
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
