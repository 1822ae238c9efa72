import { defineProject } from 'vitest/config';

/** The per-package vitest project: tests run against source through the `@reward-lens/source` export condition. */
export function rewardLensProject(name: string, options: { testTimeout?: number } = {}) {
  const conditions = ['@reward-lens/source', 'module', 'node', 'import', 'default'];
  return defineProject({
    resolve: { conditions },
    ssr: { resolve: { conditions, externalConditions: ['@reward-lens/source'] } },
    test: {
      name,
      include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
      // `*.browser.test.ts` run in Chromium, in a package's browser project (vitest.browser.shared.ts).
      exclude: ['**/node_modules/**', '**/*.browser.test.ts'],
      testTimeout: options.testTimeout ?? 60_000,
      // Hooks load models and start browsers: under load on 2 shared cores they need the tests' time, not vitest's 10 s.
      hookTimeout: options.testTimeout ?? 60_000,
      environment: 'node',
      // backend-tiny's worker threads run a bundle of its source (see the file).
      globalSetup: [new URL('./tools/tiny-worker-setup.ts', import.meta.url).pathname],
    },
  });
}
