import { defineProject } from 'vitest/config';

const conditions = ['@reward-lens/source', 'module', 'node', 'import', 'default'];

/**
 * The built demo in Debian's Chromium (playwright-core), checked against the real CLI. It builds
 * the app and the packages it uses (turbo, cached), so it runs after every other project
 * (`groupOrder`), never while another test rebuilds or reads the packages' dist folders. The test's
 * own helpers (model folders, the CLI) use the packages' source, as every other test does.
 */
export default defineProject({
  resolve: { conditions },
  ssr: { resolve: { conditions, externalConditions: ['@reward-lens/source'] } },
  test: {
    name: 'demo-e2e',
    include: ['e2e/**/*.e2e.test.ts'],
    environment: 'node',
    // A cold build of the packages, Chromium and onnxruntime-web on 2 shared cores: generous, never flaky.
    testTimeout: 600_000,
    hookTimeout: 1_200_000,
    sequence: { groupOrder: 1 },
  },
});
