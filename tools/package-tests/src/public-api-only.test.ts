import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { publishablePackages, repositoryRoot } from './workspace.js';

// First-party backends are built on what a third party builds on: @reward-lens/spec. Core is for
// their tests (the conformance kit) only; onnx-export reads folders through @reward-lens/loaders.
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

describe('first-party backends are built on @reward-lens/spec', () => {
  it.each(firstPartyBackends)('%s imports no part of core in its published source', (directory) => {
    const files = sourceFiles(join(repositoryRoot, directory, 'src'));
    expect(files.length).toBeGreaterThan(0);
    const offending = files.flatMap((file) =>
      [...readFileSync(file, 'utf8').matchAll(/from '(@reward-lens\/core(?:\/[^']*)?)'/g)]
        .map((match) => match[1]!)
        .map((specifier) => `${relative(repositoryRoot, file)}: ${specifier}`),
    );
    expect(offending).toEqual([]);
  });

  it.each(firstPartyBackends)('%s depends on spec, not on core', (directory) => {
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

describe('the layers under core', () => {
  const ourDependencies = (directory: string) => {
    const manifest = JSON.parse(readFileSync(join(repositoryRoot, directory, 'package.json'), 'utf8')) as {
      dependencies?: Record<string, string>;
      peerDependencies?: Record<string, string>;
    };
    return Object.keys({ ...manifest.dependencies, ...manifest.peerDependencies }).filter((name) => name.startsWith('@reward-lens/'));
  };

  it.each([
    ['packages/tokenizers', ['@reward-lens/spec']],
    ['packages/loaders', ['@reward-lens/spec', '@reward-lens/tokenizers']],
    ['packages/onnx-export', ['@reward-lens/loaders', '@reward-lens/spec']],
  ])('%s depends on %j of ours and on nothing above', (directory, expected) => {
    expect(ourDependencies(directory).sort()).toEqual(expected);
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
