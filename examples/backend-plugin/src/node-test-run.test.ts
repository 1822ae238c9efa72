import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { expect, it } from 'vitest';

// The conformance kit must not need vitest: the example's node:test file runs it under Node's own runner.
it('passes the conformance kit under node:test, with the cache tests skipped and their reason printed', async () => {
  const root = fileURLToPath(new URL('..', import.meta.url));
  const { stdout } = await promisify(execFile)(
    process.execPath,
    ['--import', 'tsx', '--conditions=@reward-lens/source', '--test', '--test-reporter=tap', 'src/conformance.node-test.ts'],
    { cwd: root, maxBuffer: 16 * 1024 * 1024 },
  ).catch((error: { stdout?: string; stderr?: string }) => {
    throw new Error(`node --test failed:\n${error.stdout ?? ''}\n${error.stderr ?? ''}`);
  });
  expect(stdout).toMatch(/^# fail 0$/m);
  expect(stdout).toMatch(/^# skipped 4$/m);
  expect(stdout.match(/ok \d+ - (kv cache|prefix scoring) # SKIP backend "float32-example" does not declare KV cache/g)).toHaveLength(4);
  const passed = Number(/^# pass (\d+)$/m.exec(stdout)?.[1]);
  expect(passed).toBeGreaterThanOrEqual(30);
}, 240_000);
