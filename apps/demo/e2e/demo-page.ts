import type { Page } from 'playwright-core';

export type Counter = 'runs' | 'compareRuns';

/** Does `action` and waits until the page has finished the run it started (`body[data-runs]` grows); a run that ended in an error throws its message. */
export async function afterRun(page: Page, action: () => Promise<unknown>, counter: Counter = 'runs'): Promise<void> {
  const before = await page.evaluate((name) => Number(document.body.dataset[name] ?? 0), counter);
  await action();
  await page.waitForFunction(
    ([name, previous]) => Number(document.body.dataset[name as string] ?? 0) > (previous as number) && document.body.dataset.status !== 'busy',
    [counter, before] as const,
    { timeout: 300_000, polling: 100 },
  );
  const status = await page.evaluate(() => document.body.dataset.status);
  if (status === 'error') throw new Error(`the page reports an error: ${await page.locator('#status').textContent()}`);
}

/** What the page shows for the last scored solution, read through the test hooks. */
export interface PageResult {
  problem: string;
  solution: string;
  backend: string;
  scores: number[];
  outcome: number;
  lowest: number;
  labelled: number;
  aggregates: Record<string, number>;
  fallback: string | null;
  notes: string[];
}

export async function readResult(page: Page): Promise<PageResult> {
  return page.evaluate(() => {
    const rows = [...document.querySelectorAll<HTMLElement>('[data-step-index]')];
    const indexOf = (selector: string) => rows.findIndex((row) => row.matches(selector));
    return {
      problem: (document.getElementById('problem') as HTMLTextAreaElement).value,
      solution: (document.getElementById('solution') as HTMLTextAreaElement).value,
      backend: document.querySelector('[data-backend]')?.getAttribute('data-backend') ?? '',
      scores: rows.map((row) => Number(row.dataset.score)),
      outcome: Number(document.querySelector('[data-outcome]')?.getAttribute('data-outcome')),
      lowest: indexOf('.step-lowest'),
      labelled: indexOf('.step-labelled'),
      aggregates: Object.fromEntries(
        [...document.querySelectorAll<HTMLElement>('[data-aggregate]')].map((cell) => [cell.dataset.aggregate!, Number(cell.dataset.value)]),
      ),
      fallback: document.querySelector('[data-fallback]')?.textContent ?? null,
      notes: [...document.querySelectorAll('#run-info .notes li')].map((item) => item.textContent ?? ''),
    };
  });
}

/** Chooses an example and a backend (each change scores), then reads the result. */
export async function scoreExample(page: Page, options: { example?: string; backend?: string }): Promise<PageResult> {
  if (options.backend !== undefined && (await page.inputValue('#backend')) !== options.backend) {
    await afterRun(page, () => page.selectOption('#backend', options.backend!));
  }
  if (options.example !== undefined && (await page.inputValue('#example')) !== options.example) {
    await afterRun(page, () => page.selectOption('#example', options.example!));
  }
  return readResult(page);
}
