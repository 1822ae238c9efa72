import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const repositoryRoot = fileURLToPath(new URL('../../../', import.meta.url));

/** A binary of this package's own dev dependencies (esbuild, tsc, attw). */
export function toolBinary(name: string): string {
  return fileURLToPath(new URL(`../node_modules/.bin/${name}`, import.meta.url));
}

/** A binary of the workspace root's dev dependencies (turbo, changeset). */
export function rootBinary(name: string): string {
  return join(repositoryRoot, 'node_modules/.bin', name);
}

export interface WorkspacePackage {
  name: string;
  version: string;
  /** Relative to the repository root, e.g. `packages/core`. */
  directory: string;
  manifest: Record<string, unknown> & { exports?: Record<string, unknown>; private?: boolean };
}

/** Every package under packages/ and apps/ that is published (not marked private). */
export function publishablePackages(): WorkspacePackage[] {
  const found: WorkspacePackage[] = [];
  for (const parent of ['packages', 'apps']) {
    for (const entry of readdirSync(join(repositoryRoot, parent), { withFileTypes: true })) {
      if (!entry.isDirectory()) continue;
      const directory = `${parent}/${entry.name}`;
      let manifest: WorkspacePackage['manifest'];
      try {
        manifest = JSON.parse(readFileSync(join(repositoryRoot, directory, 'package.json'), 'utf8'));
      } catch {
        continue;
      }
      if (manifest.private === true) continue;
      found.push({ name: String(manifest.name), version: String(manifest.version), directory, manifest });
    }
  }
  return found.sort((a, b) => a.name.localeCompare(b.name));
}
