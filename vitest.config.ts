import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    projects: [
      'packages/*/vitest.config.ts',
      'apps/*/vitest.config.ts',
      'tools/*/vitest.config.ts',
      // Third-party examples, as outsiders write them (examples/backend-plugin passes the conformance kit).
      'examples/*/vitest.config.ts',
      // Browser projects (headless Chromium): `*.browser.test.ts`.
      'packages/*/vitest.browser.config.ts',
      // Browser projects on cross-origin isolated pages: `*.isolated.browser.test.ts`.
      'packages/*/vitest.browser-isolated.config.ts',
      // The built browser demo driven in Chromium (after all other projects: it builds the packages).
      'apps/demo/vitest.e2e.config.ts',
    ],
    reporters: ['default', './tools/test-summary-reporter.ts'],
  },
});
