import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { Capability } from '@reward-lens/spec';
import { jestHarness, vitestHarness, type ConformanceHarness } from './conformance-harness.js';
import { withoutCapabilities } from '../../test/support/mutants.js';
import { createReferenceBackend } from './reference/reference-backend.js';
import { runBackendConformance } from './run-backend-conformance.js';

/** Registers only the named tests of the kit (the rest would make this file slow). */
function only(harness: ConformanceHarness, names: string[]): ConformanceHarness {
  return {
    describe: harness.describe,
    test: (name, body) => (names.includes(name) ? harness.test(name, body) : undefined),
    skip: (name, reason) => (names.includes(name) ? harness.skip(name, reason) : undefined),
  };
}

const lacksCache = async (model: Parameters<typeof createReferenceBackend>[0]) =>
  withoutCapabilities(createReferenceBackend(model), Capability.ACTIVATIONS, { cache: false });

describe('vitest adapter, in a real vitest run', () => {
  runBackendConformance({
    harness: only(vitestHarness({ describe, it }), ['spec contract', 'kv cache', 'deterministic']),
    label: 'vitest adapter',
    createBackend: lacksCache,
    skip: [{ reason: 'declared here', tests: ['deterministic'] }],
  });

  it('reported the tests that do not apply as skipped, with their reasons, and ran the others', (context) => {
    const tasks: { name: string; mode: string; result?: { state?: string; note?: string } }[] = [];
    const visit = (task: { name: string; mode: string; result?: { state?: string; note?: string }; tasks?: unknown[] }) => {
      if (task.tasks) for (const child of task.tasks) visit(child as typeof task);
      else tasks.push(task);
    };
    visit(context.task.file as never);
    const conformance = tasks.filter((task) => task !== (context.task as unknown));
    const byName = (fragment: string) => conformance.filter((task) => task.name.startsWith(fragment));
    expect(byName('kv cache').map((task) => [task.result?.state, task.result?.note])).toEqual([
      ['skip', 'backend "reference" does not declare KV cache'],
      ['skip', 'backend "reference" does not declare KV cache'],
    ]);
    expect(byName('deterministic').map((task) => [task.mode, task.name])).toEqual([
      ['skip', 'deterministic (skipped: declared here)'],
      ['skip', 'deterministic (skipped: declared here)'],
    ]);
    expect(byName('spec contract').map((task) => task.result?.state)).toEqual(['pass', 'pass']);
  });
});

describe('node:test adapter, in a real node:test run', () => {
  it('passes what applies, and reports # SKIP with the reason for what does not', async () => {
    const fixture = fileURLToPath(new URL('../../test/support/node-test-run.ts', import.meta.url));
    const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', '--conditions=@reward-lens/source', '--test-reporter=tap', fixture], {
      cwd: fileURLToPath(new URL('../..', import.meta.url)),
    }).catch((error: { stdout?: string; stderr?: string }) => {
      throw new Error(`node:test run failed:\n${error.stdout ?? ''}\n${error.stderr ?? ''}`);
    });
    expect(stdout).toMatch(/^# pass 2$/m);
    expect(stdout).toMatch(/^# fail 0$/m);
    expect(stdout).toMatch(/^# skipped 4$/m);
    expect(stdout.match(/ok \d+ - kv cache # SKIP backend "reference" does not declare KV cache/g)).toHaveLength(2);
    expect(stdout.match(/ok \d+ - deterministic # SKIP declared in the fixture/g)).toHaveLength(2);
  }, 120_000);
});

describe('jest adapter, on jest-like globals', () => {
  /** Jest's describe/it/it.skip as far as the adapter uses them: records registrations, runs them later. */
  function jestLike() {
    const registered: { name: string; body?: () => Promise<void>; timeout?: number; skipped?: boolean }[] = [];
    const path: string[] = [];
    const it = Object.assign(
      (name: string, body: () => Promise<void>, timeout?: number) => void registered.push({ name: [...path, name].join(' > '), body, timeout }),
      { skip: (name: string) => void registered.push({ name: [...path, name].join(' > '), skipped: true }) },
    );
    const describe = (name: string, body: () => void) => {
      path.push(name);
      body();
      path.pop();
    };
    return { api: { describe, it }, registered };
  }

  it('declared skips go to it.skip with the reason; a test that finds it does not apply fails (jest cannot skip at run time)', async () => {
    const { api, registered } = jestLike();
    runBackendConformance({
      harness: only(jestHarness(api), ['spec contract', 'kv cache', 'deterministic']),
      createBackend: lacksCache,
      skip: [{ reason: 'no cache in this backend', tests: ['deterministic'] }],
    });
    expect(registered.filter((test) => test.skipped).map((test) => test.name.split(' > ').at(-1))).toEqual([
      'deterministic (skipped: no cache in this backend)',
      'deterministic (skipped: no cache in this backend)',
    ]);
    const kv = registered.find((test) => test.name.endsWith('kv cache'))!;
    expect(kv.timeout).toBe(120_000);
    await expect(kv.body!()).rejects.toThrow(/does not apply to this backend \(backend "reference" does not declare KV cache\).*declare it/);
    await registered.find((test) => test.name.endsWith('spec contract'))!.body!();
  });
});
