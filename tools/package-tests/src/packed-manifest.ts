import { runChecked } from './run-command.js';

export interface PackedManifest {
  name: string;
  license?: string;
  homepage?: string;
  repository?: { type?: string; url?: string; directory?: string };
  bugs?: { url?: string };
  dependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  peerDependenciesMeta?: Record<string, { optional?: boolean }>;
}

/** The package.json inside a tarball: what the registry and npm see, after `workspace:` ranges were replaced. */
export async function readPackedManifest(tarball: string): Promise<PackedManifest> {
  const { stdout } = await runChecked('tar', ['-xzf', tarball, '-O', 'package/package.json'], { cwd: '/' });
  return JSON.parse(stdout) as PackedManifest;
}

/** The total size in bytes of the files under a folder (symbolic links not followed). */
export async function folderSize(folder: string): Promise<number> {
  const { stdout } = await runChecked('du', ['-sb', folder], { cwd: '/' });
  return Number(stdout.split('\t')[0]);
}
