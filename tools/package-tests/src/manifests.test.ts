import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCommand } from './run-command.js';
import { publishablePackages, repositoryRoot } from './workspace.js';

// What the manifests promise before anything is built or packed: the gaps an npm user met.

interface Manifest {
  name: string;
  scripts?: Record<string, string>;
  dependencies?: Record<string, string>;
  exports?: Record<string, string | { import?: { types?: string } }>;
  typesVersions?: Record<string, Record<string, string[]>>;
}

const manifests = publishablePackages().map((entry) => ({ directory: entry.directory, manifest: entry.manifest as unknown as Manifest }));

describe('published manifests', () => {
  it.each(manifests.map(({ manifest }) => manifest.name))(
    "%s: no @types package among its runtime dependencies (it would pull the newest into users' trees)",
    (name) => {
      const { manifest } = manifests.find((entry) => entry.manifest.name === name)!;
      expect(Object.keys(manifest.dependencies ?? {}).filter((dependency) => dependency.startsWith('@types/'))).toEqual([]);
    },
  );

  it.each(manifests.map(({ manifest }) => manifest.name))(
    "%s: typesVersions maps every typed subpath to its exports' types (TypeScript's node10 resolution reads no exports)",
    (name) => {
      const { manifest } = manifests.find((entry) => entry.manifest.name === name)!;
      const typedSubpaths = Object.fromEntries(
        Object.entries(manifest.exports ?? {}).flatMap(([subpath, target]) =>
          subpath === '.' || typeof target !== 'object' || target.import?.types === undefined ? [] : [[subpath.slice(2), [target.import.types]]],
        ),
      );
      expect(manifest.typesVersions?.['*'] ?? {}).toEqual(typedSubpaths);
    },
  );

  it.each(manifests.map(({ manifest }) => manifest.name))('%s: has a prepack guard', (name) => {
    const { manifest } = manifests.find((entry) => entry.manifest.name === name)!;
    expect(manifest.scripts?.prepack).toMatch(/existsSync\('dist\//);
  });

  it('packing an unbuilt package fails and says why, instead of shipping an empty one', async () => {
    const scratch = mkdtempSync(join(tmpdir(), 'reward-lens-prepack-'));
    try {
      const copy = join(scratch, 'spec');
      cpSync(join(repositoryRoot, 'packages/spec'), copy, { recursive: true, filter: (source) => !/\/(dist|node_modules)(\/|$)/.test(source) });
      const result = await runCommand('npm', ['pack', '--dry-run', '--loglevel=error'], { cwd: copy });
      expect(result.exitCode).not.toBe(0);
      expect(result.stderr).toContain('@reward-lens/spec: dist/ is not built: run pnpm build before packing');
    } finally {
      rmSync(scratch, { recursive: true, force: true });
    }
  });
});
