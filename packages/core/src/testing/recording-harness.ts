import { runTestBody, type ConformanceHarness, type ConformanceTestContext } from './conformance-harness.js';

/** One test's outcome in a {@link ConformanceReport}. */
export type ConformanceOutcome =
  | { name: string; status: 'passed' }
  | { name: string; status: 'failed'; error: unknown }
  | { name: string; status: 'skipped'; reason: string };

export interface ConformanceReport {
  outcomes: ConformanceOutcome[];
  passed: number;
  failed: number;
  skipped: number;
}

/**
 * Runs the kit with no test framework: register the suite with `harness`, then `run()` runs
 * every test in order and reports each one (a script, a CI step, or a test of the kit itself).
 *
 * @example
 * const recorder = recordingHarness();
 * runBackendConformance({ harness: recorder.harness, createBackend });
 * const report = await recorder.run();
 * if (report.failed > 0) process.exitCode = 1;
 */
export function recordingHarness(): { harness: ConformanceHarness; run(): Promise<ConformanceReport> } {
  const registered: { name: string; body?: (context: ConformanceTestContext) => Promise<void>; reason?: string }[] = [];
  const path: string[] = [];
  const fullName = (name: string) => [...path, name].join(' > ');
  const harness: ConformanceHarness = {
    describe(name, body) {
      path.push(name);
      try {
        body();
      } finally {
        path.pop();
      }
    },
    test: (name, body) => void registered.push({ name: fullName(name), body }),
    skip: (name, reason) => void registered.push({ name: fullName(name), reason }),
  };
  return {
    harness,
    async run() {
      const outcomes: ConformanceOutcome[] = [];
      for (const { name, body, reason } of registered) {
        if (body === undefined) {
          outcomes.push({ name, status: 'skipped', reason: reason! });
          continue;
        }
        try {
          const { skipped } = await runTestBody(body);
          outcomes.push(skipped === undefined ? { name, status: 'passed' } : { name, status: 'skipped', reason: skipped });
        } catch (error) {
          outcomes.push({ name, status: 'failed', error });
        }
      }
      const count = (status: ConformanceOutcome['status']) => outcomes.filter((outcome) => outcome.status === status).length;
      return { outcomes, passed: count('passed'), failed: count('failed'), skipped: count('skipped') };
    },
  };
}
