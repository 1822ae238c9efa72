import { cp, mkdtemp, readFile, rm, symlink } from 'node:fs/promises';
import { existsSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import getReleasePlan from '@changesets/get-release-plan';
import { describe, expect, it } from 'vitest';
import { runChecked } from './run-command.js';
import { publishablePackages, repositoryRoot, rootBinary } from './workspace.js';

// What `changeset status` reports, checked: the current changesets must not make a 0.x package
// 1.0.0 by accident (a minor bump of core used to force a major on every peer-dependent backend),
// nor version the private tools.

const published = new Set(publishablePackages().map((entry) => entry.name));

describe('the release plan of the current changesets', () => {
  it('parses every changeset, and proposes no major and no 1.0.0 for a 0.x package', async () => {
    const plan = await getReleasePlan(repositoryRoot);
    const releases = plan.releases.filter((release) => release.type !== 'none');
    expect(releases.filter((release) => release.type === 'major').map((release) => release.name)).toEqual([]);
    const leavingZero = releases.filter((release) => release.oldVersion.startsWith('0.') && !release.newVersion.startsWith('0.'));
    expect(leavingZero.map((release) => `${release.name} ${release.oldVersion} -> ${release.newVersion}`)).toEqual([]);
  });

  it('gives every published package one version (one fixed group, the CLI included) and versions no private package', async () => {
    const plan = await getReleasePlan(repositoryRoot);
    const releases = plan.releases.filter((release) => release.type !== 'none');
    expect(releases.filter((release) => !published.has(release.name)).map((release) => release.name)).toEqual([]);
    if (releases.length === 0) return;
    expect(new Set(releases.map((release) => release.name))).toEqual(published);
    expect(new Set(releases.map((release) => release.newVersion)).size).toBe(1);
  });

  it('applied in a copy (changeset version), bumps the versions it planned and keeps the peer ranges and the private tools as they are', async (context) => {
    const plan = await getReleasePlan(repositoryRoot);
    const planned = new Map(plan.releases.filter((release) => release.type !== 'none').map((release) => [release.name, release.newVersion]));
    if (planned.size === 0) context.skip('no changesets to apply');
    const copy = await mkdtemp(join(tmpdir(), 'reward-lens-changesets-'));
    try {
      // What `changeset version` reads and writes: the manifests, the workspace list and .changeset.
      const { stdout } = await runChecked('git', ['ls-files', '--cached', '--others', '--exclude-standard'], { cwd: repositoryRoot });
      const files = stdout
        .split('\n')
        .filter((file) => /(^|\/)package\.json$|^pnpm-workspace\.yaml$|^\.changeset\//.test(file) && existsSync(join(repositoryRoot, file)));
      for (const file of files) await cp(join(repositoryRoot, file), join(copy, file), { recursive: true });
      // The changelog generator named in .changeset/config.json is resolved from node_modules.
      await symlink(join(repositoryRoot, 'node_modules'), join(copy, 'node_modules'));
      await runChecked(rootBinary('changeset'), ['version'], { cwd: copy });

      const manifestFiles = files.filter((file) => file.endsWith('package.json') && file !== 'package.json');
      for (const file of manifestFiles) {
        const before = JSON.parse(await readFile(join(repositoryRoot, file), 'utf8')) as {
          name: string;
          version: string;
          private?: boolean;
          peerDependencies?: object;
        };
        const after = JSON.parse(await readFile(join(copy, file), 'utf8')) as typeof before;
        expect(after.version, after.name).toBe(planned.get(after.name) ?? before.version);
        expect(after.peerDependencies, `${after.name}'s peer ranges`).toEqual(before.peerDependencies);
        if (before.private) expect(readdirSync(join(copy, dirname(file))), `${after.name} is private`).not.toContain('CHANGELOG.md');
      }
      expect(readdirSync(join(copy, '.changeset')).filter((file) => file.endsWith('.md') && file !== 'README.md')).toEqual([]);
    } finally {
      await rm(copy, { recursive: true, force: true });
    }
  });
});
