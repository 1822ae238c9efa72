import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

/** Debian's Chromium, as TOOLCHAIN.md and vitest.browser.shared.ts launch it (never a downloaded browser). */
export const chromiumPath = '/usr/bin/chromium';

export async function launchChromium(): Promise<Browser> {
  if (!existsSync(chromiumPath)) {
    throw new Error(
      `the report test needs Chromium at ${chromiumPath}: install Debian's "chromium" package (apt-get install -y chromium), as tools/bootstrap.sh does`,
    );
  }
  return chromium.launch({
    executablePath: chromiumPath,
    headless: true,
    args: ['--headless', '--no-sandbox', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
}
