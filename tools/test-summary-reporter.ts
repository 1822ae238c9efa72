import type { Reporter, SerializedError, TestModule, TestRunEndReason } from 'vitest/node';

export interface RunSummary {
  passed: number;
  failed: number;
  skipped: number;
  /** Test files that failed as a whole: a collection error, or a hook outside any test (a `beforeAll` that timed out). */
  failedFiles: number;
  /** Errors raised by suites and hooks rather than by a test. */
  suiteErrors: number;
  unhandledErrors: number;
}

/** Counts what a run did. A test that never ran because its file or a hook failed is counted under `failedFiles`, not as a pass. */
export function summarizeRun(testModules: ReadonlyArray<TestModule>, unhandledErrors: ReadonlyArray<SerializedError> = []): RunSummary {
  const summary: RunSummary = { passed: 0, failed: 0, skipped: 0, failedFiles: 0, suiteErrors: 0, unhandledErrors: unhandledErrors.length };
  for (const testModule of testModules) {
    if (testModule.state() === 'failed') summary.failedFiles += 1;
    summary.suiteErrors += testModule.errors().length;
    for (const suite of testModule.children.allSuites()) summary.suiteErrors += suite.errors().length;
    for (const test of testModule.children.allTests()) {
      const state = test.result().state;
      if (state === 'passed') summary.passed += 1;
      else if (state === 'failed') summary.failed += 1;
      else summary.skipped += 1;
    }
  }
  return summary;
}

/** Whether a run with this summary must fail CI. */
export function runFailed(summary: RunSummary, reason?: TestRunEndReason): boolean {
  return reason === 'failed' || reason === 'interrupted' || summary.failed + summary.failedFiles + summary.suiteErrors + summary.unhandledErrors > 0;
}

/** Ends the run with one plain summary line, which CI reads in any language; sets a failing exit code whenever anything failed. */
export default class TestSummaryReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>, unhandledErrors: ReadonlyArray<SerializedError>, reason: TestRunEndReason): void {
    const summary = summarizeRun(testModules, unhandledErrors);
    const problems = [
      summary.failedFiles > 0 ? `${summary.failedFiles} failed files` : '',
      summary.suiteErrors > 0 ? `${summary.suiteErrors} hook or suite errors` : '',
      summary.unhandledErrors > 0 ? `${summary.unhandledErrors} unhandled errors` : '',
    ].filter(Boolean);
    const tail = problems.length > 0 ? ` (${problems.join(', ')})` : '';
    process.stdout.write(`\nTests: ${summary.passed} passed, ${summary.failed} failed, ${summary.skipped} skipped${tail}\n`);
    if (runFailed(summary, reason)) process.exitCode = 1;
  }
}
