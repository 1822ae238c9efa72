import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect } from 'vitest';
import { runChecked } from './run-command.js';
import { toolBinary } from './workspace.js';

/** `source` bundled for browsers by esbuild (`--bundle --platform=browser`, no other flags) in the project; the bundle's path. Warnings fail the test. */
export async function bundleForBrowser(project: string, name: string, source: string, extension = 'mjs'): Promise<string> {
  const input = join(project, 'browser', `${name}.${extension}`);
  const output = join(project, 'browser', 'out', `${name}.mjs`);
  await mkdir(join(project, 'browser'), { recursive: true });
  await writeFile(input, source);
  const { stderr } = await runChecked(
    toolBinary('esbuild'),
    [input, '--bundle', '--platform=browser', '--format=esm', `--outfile=${output}`, '--log-level=warning'],
    {
      cwd: project,
    },
  );
  expect(stderr, 'esbuild warnings').toBe('');
  return output;
}
