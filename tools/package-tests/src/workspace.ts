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

/**
 * `name` and the workspace packages it depends on at run time (`dependencies`, transitively),
 * not its peers: what npm must be given as tarballs, since it would otherwise look them up in
 * the registry.
 */
export function runtimeWorkspaceClosure(name: string, packages: readonly WorkspacePackage[] = publishablePackages()): string[] {
  const byName = new Map(packages.map((entry) => [entry.name, entry]));
  const closure = new Set<string>();
  const visit = (current: string) => {
    if (closure.has(current)) return;
    const entry = byName.get(current);
    if (!entry) throw new Error(`${current} is not a published workspace package`);
    closure.add(current);
    for (const dependency of Object.keys((entry.manifest.dependencies as Record<string, string> | undefined) ?? {})) {
      if (byName.has(dependency)) visit(dependency);
    }
  };
  visit(name);
  return [...closure];
}
