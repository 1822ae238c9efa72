import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';
import { chromiumFlags, chromiumPath } from '../../../chromium-flags.js';

/**
 * Headless Chromium; `webgpu: true` adds `--enable-unsafe-webgpu`, giving `navigator.gpu` an
 * adapter (SwiftShader's, without a GPU). Without it the page has no WebGPU adapter, which is the
 * fallback the demo must take.
 */
export async function launchChromium(options: { webgpu: boolean }): Promise<Browser> {
  if (!existsSync(chromiumPath)) {
    throw new Error(
      `the demo's browser test needs Chromium at ${chromiumPath}: install Debian's "chromium" package (apt-get install -y chromium libvulkan1), as tools/bootstrap.sh does`,
    );
  }
  return chromium.launch({
    executablePath: chromiumPath,
    headless: true,
    args: options.webgpu ? [...chromiumFlags, '--enable-unsafe-webgpu'] : [...chromiumFlags],
  });
}
