import { copyFile, mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { runChecked } from './run-command.js';

/** The environment without the `npm_*` settings a `pnpm run` puts there: npm would read them as its own configuration. */
function withoutPackageManagerSettings(environment: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(environment).filter(([key]) => !/^(npm|pnpm)_/i.test(key)));
}

/**
 * A project outside the workspace with the given tarballs installed by npm, as a user would,
 * following backend-onnx-node's README: third-party dependencies come from the registry (npm's
 * cache first) and install scripts run, with `ONNXRUNTIME_NODE_INSTALL=skip` (onnxruntime-node's
 * postinstall would download CUDA binaries from outside the registry; its CPU binaries are in the package).
 */
export async function createScratchProject(directory: string, tarballs: readonly string[]): Promise<string> {
  await mkdir(directory, { recursive: true });
  await writeFile(join(directory, 'package.json'), `${JSON.stringify({ name: 'reward-lens-scratch', private: true, version: '0.0.0' }, null, 2)}\n`);
  await runChecked('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', '--loglevel=error', ...tarballs], {
    cwd: directory,
    env: { ...withoutPackageManagerSettings(process.env), ONNXRUNTIME_NODE_INSTALL: 'skip' },
    timeoutMs: 600_000,
  });
  return directory;
}

/** Copies a script of `consumer-scripts/` (what a user's own code does with the installed packages) into the project. */
export async function placeScript(project: string, name: string): Promise<void> {
  await copyFile(new URL(`../consumer-scripts/${name}`, import.meta.url), join(project, name));
}
