import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { pathToFileURL } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';
import { expect } from 'vitest';

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

/**
 * Opens a page file (a report, the inspect page) and waits until its script has drawn every
 * figure or failed; collects the page's errors and any request that is not for a file.
 */
export async function openPageFile(browser: Browser, path: string): Promise<{ page: Page; requests: string[]; errors: string[] }> {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  const requests: string[] = [];
  page.on('request', (request) => {
    if (!request.url().startsWith('file:')) requests.push(request.url());
  });
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(String(error)));
  await page.goto(pathToFileURL(path).href);
  await page.waitForSelector('body[data-figures], body[data-report-error]');
  return { page, requests, errors };
}

/**
 * Writes a page file and opens it (`openPageFile`), expecting it to open cleanly: its script
 * reported no error, the page threw none, and it asked for nothing but files (a page must work
 * offline, from one file).
 */
export async function openCleanPageFile(browser: Browser, path: string, html: string): Promise<Page> {
  await writeFile(path, html);
  const { page, requests, errors } = await openPageFile(browser, path);
  expect(await page.getAttribute('body', 'data-report-error')).toBeNull();
  expect(errors).toEqual([]);
  expect(requests).toEqual([]);
  return page;
}
