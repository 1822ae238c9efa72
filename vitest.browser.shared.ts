import { existsSync } from 'node:fs';
import { playwright } from '@vitest/browser-playwright';
import { defineProject } from 'vitest/config';
import { chromiumFlags, chromiumPath } from './chromium-flags.js';

/**
 * A package's `*.browser.test.ts` in headless Chromium: Debian's `/usr/bin/chromium` driven by
 * playwright (never a downloaded browser), with WebGPU on SwiftShader. Tests run against source
 * through the `@reward-lens/source` condition, with the browser's conditions after it.
 */
export function rewardLensBrowserProject(
  name: string,
  options: {
    testTimeout?: number;
    optimizeDepsExclude?: string[];
    /** Which test files (default `src/**\/*.browser.test.ts`). */
    include?: string[];
    /** Serve the pages cross-origin isolated (COOP and COEP headers), so that `SharedArrayBuffer` and shared WebAssembly memory exist there. */
    crossOriginIsolated?: boolean;
  } = {},
) {
  const chromium = chromiumPath;
  if (!existsSync(chromium)) {
    throw new Error(
      `${name} needs Chromium at ${chromium}: install Debian's "chromium" package (apt-get install -y chromium libvulkan1), as tools/bootstrap.sh does`,
    );
  }
  const flags = [...chromiumFlags, '--enable-unsafe-webgpu'];
  return defineProject({
    resolve: { conditions: ['@reward-lens/source', 'module', 'browser', 'import', 'default'] },
    optimizeDeps: { exclude: options.optimizeDepsExclude ?? [] },
    ...(options.crossOriginIsolated
      ? { server: { headers: { 'Cross-Origin-Opener-Policy': 'same-origin', 'Cross-Origin-Embedder-Policy': 'require-corp' } } }
      : {}),
    test: {
      name,
      include: options.include ?? ['src/**/*.browser.test.ts'],
      exclude: ['**/node_modules/**', ...(options.include ? [] : ['**/*.isolated.browser.test.ts'])],
      testTimeout: options.testTimeout ?? 60_000,
      // Hooks load models and start browsers: under load on 2 shared cores they need the tests' time, not vitest's 10 s.
      hookTimeout: options.testTimeout ?? 60_000,
      browser: {
        enabled: true,
        headless: true,
        screenshotFailures: false,
        provider: playwright({ launchOptions: { executablePath: chromium, args: flags } }),
        instances: [{ browser: 'chromium' }],
      },
    },
  });
}
