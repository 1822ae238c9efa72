import { runChecked } from './run-command.js';
import { repositoryRoot, rootBinary, type WorkspacePackage } from './workspace.js';

export interface PackedPackage extends WorkspacePackage {
  /** The absolute path of the package's tarball, as `pnpm pack` wrote it. */
  tarball: string;
  /** The files in the tarball, relative to its `package/` folder. */
  files: string[];
}

/**
 * Builds the packages with turbo (cached: an unchanged package is restored, not rebuilt) and packs
 * each with `pnpm pack`, which is what `pnpm publish` uploads: `workspace:` ranges are replaced by
 * versions, and only the `files` are included.
 */
export async function buildAndPack(packages: readonly WorkspacePackage[], destination: string): Promise<PackedPackage[]> {
  await runChecked(rootBinary('turbo'), ['run', 'build', '--output-logs=errors-only', ...packages.map((entry) => `--filter=${entry.name}`)], {
    cwd: repositoryRoot,
    env: { ...process.env, TURBO_TELEMETRY_DISABLED: '1' },
    timeoutMs: 840_000,
  });
  const packed: PackedPackage[] = [];
  for (const entry of packages) {
    const { stdout } = await runChecked('pnpm', ['pack', '--pack-destination', destination, '--json'], { cwd: `${repositoryRoot}/${entry.directory}` });
    const report = JSON.parse(stdout) as { filename: string; files: { path: string }[] };
    packed.push({ ...entry, tarball: report.filename, files: report.files.map((file) => file.path) });
  }
  return packed;
}
