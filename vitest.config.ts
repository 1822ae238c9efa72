import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    projects: ['packages/*', 'apps/*', 'tools/*'],
    reporters: ['default', './tools/test-summary-reporter.ts'],
  },
});
