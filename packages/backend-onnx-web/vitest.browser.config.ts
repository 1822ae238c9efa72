import { existsSync } from 'node:fs';
import { playwright } from '@vitest/browser-playwright';
import { defineProject } from 'vitest/config';

/**
 * `*.browser.test.ts` in headless Chromium: Debian's `/usr/bin/chromium`, driven by playwright
 * (never a downloaded browser), with SwiftShader's WebGPU. onnxruntime-web is served from
 * node_modules as it is (not pre-bundled), so its `new URL('*.wasm', import.meta.url)` finds the
 * `.wasm` files beside it.
 */
const chromium = '/usr/bin/chromium';
if (!existsSync(chromium)) {
  throw new Error(`backend-onnx-web-browser needs Chromium at ${chromium}: install Debian's "chromium" package (apt-get install -y chromium libvulkan1), as tools/bootstrap.sh does`);
}

const flags = ['--headless', '--no-sandbox', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--enable-unsafe-webgpu'];

export default defineProject({
  resolve: { conditions: ['@reward-lens/source', 'module', 'browser', 'import', 'default'] },
  optimizeDeps: { exclude: ['onnxruntime-web'] },
  test: {
    name: 'backend-onnx-web-browser',
    include: ['src/**/*.browser.test.ts'],
    testTimeout: 60_000,
    browser: {
      enabled: true,
      headless: true,
      screenshotFailures: false,
      provider: playwright({ launchOptions: { executablePath: chromium, args: flags } }),
      instances: [{ browser: 'chromium' }],
    },
  },
});

