import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

const fixture = fileURLToPath(new URL('../fixtures/failing-hook', import.meta.url));
const vitestBin = join(dirname(createRequire(import.meta.url).resolve('vitest/package.json')), 'vitest.mjs');

it('a hook that times out is reported as a failure and fails the run, not counted as a skip', () => {
  const run = spawnSync(process.execPath, [vitestBin, 'run', '--root', fixture], { encoding: 'utf8', env: { ...process.env, CI: '1', NO_COLOR: '1' } });
  const summary = run.stdout.split('\n').find((line) => line.startsWith('Tests: '));
  expect(summary, run.stdout + run.stderr).toBeDefined();
  expect(summary).toMatch(/^Tests: 1 passed, \d+ failed, \d+ skipped \(1 failed files, 1 hook or suite errors\)$/);
  expect(run.status).not.toBe(0);
});
