/**
 * What the conformance kit needs from a test framework: suites, tests, and skipping with a
 * reason. The kit asserts by throwing (it needs no `expect`), so a harness is three functions;
 * `vitestHarness`, `nodeTestHarness` and `jestHarness` adapt the frameworks, and
 * `recordingHarness` runs the kit with no framework at all.
 */
export interface ConformanceHarness {
  /** Groups tests (called synchronously, while the framework collects tests). */
  describe(name: string, body: () => void): void;
  /**
   * Registers a test. The body throws to fail; when it finds at run time that it does not apply
   * (the backend lacks a capability), it calls `context.skip(reason)`, which throws, and the
   * adapter must report the test as skipped with that reason: never as passed.
   */
  test(name: string, body: (context: ConformanceTestContext) => Promise<void>): void;
  /** Registers a test that is skipped before it runs, with its reason. */
  skip(name: string, reason: string): void;
}

export interface ConformanceTestContext {
  /** Ends the test as skipped, with the reason. Throws a {@link ConformanceSkip}. */
  skip(reason: string): never;
}

const skipMarker = Symbol.for('reward-lens.conformance-skip');

/** Thrown by `context.skip(reason)`; adapters turn it into their framework's skip. */
export class ConformanceSkip extends Error {
  readonly [skipMarker] = true;
  constructor(readonly reason: string) {
    super(`skipped: ${reason}`);
    this.name = 'ConformanceSkip';
  }

  static isInstance(value: unknown): value is ConformanceSkip {
    return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[skipMarker] === true;
  }
}

const throwSkip = (reason: string): never => {
  throw new ConformanceSkip(reason);
};

/** Runs a test body, returning the skip reason when it skipped itself. */
export async function runTestBody(body: (context: ConformanceTestContext) => Promise<void>): Promise<{ skipped?: string }> {
  try {
    await body({ skip: throwSkip });
    return {};
  } catch (error) {
    if (ConformanceSkip.isInstance(error)) return { skipped: error.reason };
    throw error;
  }
}

/** Options every adapter takes. */
export interface HarnessOptions {
  /** Per-test timeout in milliseconds, where the framework takes one (jest's default of 5 s is too short for a GPU backend). */
  timeout?: number;
}

type SuiteFunction = (name: string, body: () => void) => unknown;

/**
 * vitest: `import { describe, it } from 'vitest'`. Tests that find they do not apply call
 * vitest's `context.skip(reason)`, so they show as skipped with the reason as their note.
 *
 * @example
 * runBackendConformance({ harness: vitestHarness({ describe, it }), createBackend: (model) => createMyBackend(model) });
 */
export function vitestHarness(
  api: {
    describe: SuiteFunction;
    it: ((name: string, body: (context: { skip: (note?: string) => void }) => Promise<void>, timeout?: number) => unknown) & {
      skip: (name: string, body: () => void) => unknown;
    };
  },
  options: HarnessOptions = {},
): ConformanceHarness {
  return {
    describe: (name, body) => void api.describe(name, body),
    test: (name, body) =>
      void api.it(
        name,
        async (context) => {
          const { skipped } = await runTestBody(body);
          if (skipped !== undefined) context.skip(skipped);
        },
        options.timeout,
      ),
    skip: (name, reason) => void api.it.skip(`${name} (skipped: ${reason})`, () => undefined),
  };
}

/**
 * `node:test`: `import { describe, it } from 'node:test'`. Skips go through `{ skip: reason }`
 * and `t.skip(reason)`, so TAP and the spec reporter print `# SKIP <reason>`.
 *
 * @example
 * runBackendConformance({ harness: nodeTestHarness({ describe, it }), createBackend: (model) => createMyBackend(model) });
 */
export function nodeTestHarness(
  api: {
    describe: SuiteFunction;
    it: (name: string, options: { skip?: string; timeout?: number }, body: (context: { skip: (message?: string) => void }) => Promise<void> | void) => unknown;
  },
  options: HarnessOptions = {},
): ConformanceHarness {
  const timeout = options.timeout === undefined ? {} : { timeout: options.timeout };
  return {
    describe: (name, body) => void api.describe(name, body),
    test: (name, body) =>
      void api.it(name, timeout, async (context) => {
        const { skipped } = await runTestBody(body);
        if (skipped !== undefined) context.skip(skipped);
      }),
    skip: (name, reason) => void api.it(name, { skip: reason }, () => undefined),
  };
}

/**
 * jest: pass its globals, `jestHarness({ describe, it })`. Jest cannot skip a test once it
 * runs, so a test that finds it does not apply fails, naming the reason and asking for it to be
 * declared in the kit's `skip` option (which jest reports as skipped). It never passes.
 */
export function jestHarness(
  api: {
    describe: SuiteFunction;
    it: ((name: string, body: () => Promise<void>, timeout?: number) => unknown) & { skip: (name: string, body: () => void) => unknown };
  },
  options: HarnessOptions = {},
): ConformanceHarness {
  return {
    describe: (name, body) => void api.describe(name, body),
    test: (name, body) =>
      void api.it(
        name,
        async () => {
          const { skipped } = await runTestBody(body);
          if (skipped !== undefined) {
            throw new Error(
              `"${name}" does not apply to this backend (${skipped}); jest cannot skip a running test, so declare it: skip: [{ reason: '${skipped}', tests: [...] }]`,
            );
          }
        },
        options.timeout ?? 120_000,
      ),
    skip: (name, reason) => void api.it.skip(`${name} (skipped: ${reason})`, () => undefined),
  };
}
