import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sharedDataPath } from '@reward-lens/test-data';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from './chromium.js';
import { cliScores, reward, type CliScore } from './cli.js';
import { afterRun, readResult, scoreExample, type PageResult } from './demo-page.js';
import { writeTokenClassifierFolder } from './model-folders.js';
import { serveFolder } from './static-server.js';
import { buildDemo, demoRoot } from './workspace.js';

// The built demo, as a visitor gets it, in Debian's Chromium: every number it shows is checked
// against the real CLI on the same input. The build extracts its ProcessBench items from the
// shared split, which must be there (a missing file fails here, naming it).
sharedDataPath('processbench/gsm8k.json');

const tolerance = 1e-4;
const screenshots = join(demoRoot, 'test-results', 'screenshots');
const scratch = mkdtempSync(join(tmpdir(), 'reward-lens-demo-e2e-'));
let server: Awaited<ReturnType<typeof serveFolder>>;
let browser: Browser;
const pages: Page[] = [];

async function openDemo(on: Browser = browser): Promise<Page> {
  const page = await on.newPage({ viewport: { width: 1280, height: 900 } });
  pages.push(page);
  const problems: string[] = [];
  page.on('pageerror', (error) => problems.push(error.message));
  page.on('requestfailed', (request) => problems.push(`request failed: ${request.url()}`));
  page.on('request', (request) => {
    // Fully offline: the page asks nothing of any host but its own.
    if (!request.url().startsWith(server.url) && !request.url().startsWith('data:') && !request.url().startsWith('blob:'))
      problems.push(`request to ${request.url()}`);
  });
  (page as Page & { problems: string[] }).problems = problems;
  await afterRun(page, () => page.goto(server.url));
  return page;
}

function problemsOf(page: Page): string[] {
  return (page as Page & { problems: string[] }).problems;
}

function expectClose(actual: readonly number[], expected: readonly (number | null)[], label: string): void {
  expect(actual.length, `${label}: step count`).toBe(expected.length);
  actual.forEach((value, index) => {
    // A step that truncation cut off: null in the CLI's JSON, NaN on the page.
    if (expected[index] === null) return expect(value, `${label}: step ${index} has no score on the page either`).toBeNaN();
    expect(Math.abs(value - expected[index]!), `${label}: step ${index} (page ${value}, CLI ${expected[index]})`).toBeLessThanOrEqual(tolerance);
  });
}

/** The page's numbers for one solution against `reward-lens score`'s for the same problem and solution. */
function expectMatchesCli(result: PageResult, cli: CliScore, label: string): void {
  expectClose(result.scores, cli.stepScores, label);
  expect(Math.abs(result.outcome - cli.outcome), `${label}: outcome`).toBeLessThanOrEqual(tolerance);
  // What the page shows is consistent with its own numbers: the lowest row, the aggregates (over
  // the steps with a score: left truncation leaves the first steps of a long solution without one).
  const scored = result.scores.filter((score) => Number.isFinite(score));
  expect(result.lowest, `${label}: lowest row`).toBe(result.scores.indexOf(Math.min(...scored)));
  expect(result.aggregates.min).toBe(Math.min(...scored));
  expect(result.aggregates.last).toBe(scored.at(-1));
  expect(result.aggregates.mean).toBeCloseTo(scored.reduce((sum, score) => sum + score, 0) / scored.length, 6);
  expect(result.aggregates.prod).toBeCloseTo(
    scored.reduce((product, score) => product * score, 1),
    6,
  );
  if (scored.length < result.scores.length)
    expect(result.notes.join('\n'), `${label}: the cut steps are named`).toMatch(
      /the aggregates \(min, prod, mean, last\) are over the \d+ scored steps of \d+; steps? [0-9–, ]+ left out \(no score\)/,
    );
  expect(Math.abs(result.outcome - result.scores.at(-1)!), `${label}: last step = outcome`).toBeLessThanOrEqual(1e-6);
}

beforeAll(async () => {
  const dist = await buildDemo();
  expect(readdirSync(join(dist, 'examples'))).toContain('processbench-gsm8k.json');
  mkdirSync(screenshots, { recursive: true });
  server = await serveFolder(dist);
  browser = await launchChromium({ webgpu: true });
});

afterAll(async () => {
  for (const page of pages) await page.close().catch(() => undefined);
  await browser?.close();
  await server?.close();
  rmSync(scratch, { recursive: true, force: true });
});

describe('the demo in Chromium', () => {
  it('scores its first example on load with the best available backend, says which ran and why others were skipped, and asks nothing of the network', async () => {
    const page = await openDemo();
    const result = await readResult(page);
    expect(result.scores.length).toBeGreaterThan(1);
    expect(['webgpu', 'onnx-web', 'tiny']).toContain(result.backend);
    expect(result.notes.join('\n')).toMatch(new RegExp(`backend "${result.backend}" ran the weights in reward-lens-organism-prm`));
    expect(result.notes.join('\n')).toMatch(/^model: reward-lens-organism-prm, the default PRM/m);
    // Without a hardware GPU, 'auto' passes over WebGPU on SwiftShader, and says why.
    if (result.backend !== 'webgpu') expect(result.notes.join('\n')).toMatch(/backend "webgpu" skipped: .+/);
    expect(await page.locator('#backend-name').textContent()).toBe(result.backend);
    expect(await page.locator('.step-labelled').count()).toBe(1);
    // The first example is an arithmetic slip; the first step below the model's threshold is the labelled one.
    expect(await page.locator('#example option:checked').textContent()).toMatch(/wrong-result at step \d/);
    expect(await page.locator('.threshold').getAttribute('data-verdict')).toBe('match');
    expect(Number(await page.locator('.threshold').getAttribute('data-predicted'))).toBe(result.labelled);
    expect(await page.locator('.step-predicted').getAttribute('data-step-index')).toBe(String(result.labelled));
    const [cli] = await cliScores(scratch, [{ problem: result.problem, solution: result.solution }]);
    expectMatchesCli(result, cli!, 'first example');
    expect(problemsOf(page)).toEqual([]);
    await page.screenshot({ path: join(screenshots, 'first-load.png'), fullPage: true });
    // The README's picture (docs/demo.png is a copy of one): the page as a visitor first sees it, on a tall screen.
    await page.setViewportSize({ width: 1280, height: 1240 });
    await page.screenshot({ path: join(screenshots, 'readme.png') });
  });

  it("scores organism and ProcessBench examples on WebGPU, onnxruntime-web and pure TypeScript with the CLI's numbers", async () => {
    const page = await openDemo();
    const examples = await page
      .locator('#example option:not([disabled])')
      .evaluateAll((options) => options.map((option) => (option as HTMLOptionElement).value));
    // An organism solution with an error, a correct one, ProcessBench's gsm8k-0 (first error at step 1) and one without errors.
    const chosen = [examples[0]!, examples.find((id) => id.startsWith('organism') && id !== examples[0])!, 'gsm8k-0', 'gsm8k-386'];
    expect(examples).toEqual(expect.arrayContaining(chosen));
    const results: PageResult[] = [];
    for (const backend of ['tiny', 'onnx-web', 'webgpu']) {
      for (const example of chosen) {
        const result = await scoreExample(page, { backend, example });
        expect(result.backend, `${example} on ${backend}`).toBe(backend);
        expect(result.fallback).toBeNull();
        results.push(result);
      }
      await page.screenshot({ path: join(screenshots, `backend-${backend}.png`), fullPage: true });
    }
    // gsm8k-0's labelled first error is step 1 (0-based): the row says so.
    expect(results[2]!.labelled).toBe(1);
    const cli = await cliScores(scratch, results.slice(0, chosen.length));
    results.forEach((result, index) => expectMatchesCli(result, cli[index % chosen.length]!, `${chosen[index % chosen.length]} on ${result.backend}`));
    expect(problemsOf(page)).toEqual([]);
  });

  it('labels every control, works from the keyboard, keeps text contrast at WCAG AA, and fits a phone-sized screen', async () => {
    const page = await openDemo();
    const unlabelled = await page.locator('select, textarea, input, button').evaluateAll((controls) =>
      controls
        .filter((control) => !(control as HTMLElement).hidden)
        .filter((control) => {
          const labels = (control as HTMLInputElement).labels;
          return control.tagName === 'BUTTON' ? (control.textContent ?? '').trim() === '' : !labels || labels.length === 0;
        })
        .map((control) => control.id || control.outerHTML),
    );
    expect(unlabelled).toEqual([]);
    // Keyboard only: edit the solution, score with Ctrl+Enter; move to the button and press Enter.
    await page.focus('#solution');
    await page.keyboard.press('Control+End');
    await page.keyboard.type(' Checked.');
    await afterRun(page, () => page.keyboard.press('Control+Enter'));
    expect((await readResult(page)).solution.endsWith(' Checked.')).toBe(true);
    await page.focus('#backend');
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('score');
    await afterRun(page, () => page.keyboard.press('Enter'));
    // Without the example's own text, no step is marked as the labelled error.
    expect(await page.locator('.step-labelled').count()).toBe(0);
    // WCAG 2 contrast (AA): every visible text against the background it is drawn on, 4.5:1, or
    // 3:1 for large text (24px, or 18.66px bold); opaque backgrounds only (the page uses no images behind text).
    const lowContrast = await page.evaluate(() => {
      const channels = (color: string) => (color.match(/[\d.]+/g) ?? []).map(Number);
      const luminance = ([red, green, blue]: number[]) =>
        [red!, green!, blue!]
          .map((value) => value / 255)
          .map((value) => (value <= 0.03928 ? value / 12.92 : ((value + 0.055) / 1.055) ** 2.4))
          .reduce((sum, value, index) => sum + value * [0.2126, 0.7152, 0.0722][index]!, 0);
      const background = (element: Element | null): number[] => {
        for (let current = element; current; current = current.parentElement) {
          const [red, green, blue, alpha = 1] = channels(getComputedStyle(current).backgroundColor);
          if (alpha > 0) return [red!, green!, blue!];
        }
        return [255, 255, 255];
      };
      const found: string[] = [];
      let checked = 0;
      for (const element of document.querySelectorAll('body *')) {
        const own = [...element.childNodes].some((node) => node.nodeType === Node.TEXT_NODE && (node.textContent ?? '').trim() !== '');
        const style = getComputedStyle(element);
        if (!own || style.visibility === 'hidden' || (element as HTMLElement).offsetParent === null) continue;
        checked++;
        const [foreground, behind] = [luminance(channels(style.color)), luminance(background(element))];
        const ratio = (Math.max(foreground, behind) + 0.05) / (Math.min(foreground, behind) + 0.05);
        const size = Number.parseFloat(style.fontSize);
        const large = size >= 24 || (size >= 18.66 && Number(style.fontWeight) >= 700);
        if (ratio < (large ? 3 : 4.5))
          found.push(
            `${element.tagName.toLowerCase()}${element.className ? `.${element.className}` : ''} "${(element.textContent ?? '').trim().slice(0, 30)}": ${ratio.toFixed(2)}:1`,
          );
      }
      return { found, checked };
    });
    expect(lowContrast.checked, 'text elements checked').toBeGreaterThan(30);
    expect(lowContrast.found).toEqual([]);
    await page.setViewportSize({ width: 390, height: 844 });
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    await page.screenshot({ path: join(screenshots, 'phone.png'), fullPage: true });
  });

  it('falls back when WebGPU is unavailable, and says so', async (context) => {
    const plain = await launchChromium({ webgpu: false });
    try {
      const page = await openDemo(plain);
      const adapter = await page.evaluate(
        async () => ('gpu' in navigator && (await (navigator as Navigator & { gpu: { requestAdapter(): Promise<unknown> } }).gpu.requestAdapter())) !== null,
      );
      if (adapter) context.skip('this Chromium gives WebGPU an adapter even without --enable-unsafe-webgpu, so the fallback cannot be provoked here');
      const result = await scoreExample(page, { backend: 'webgpu' });
      expect(result.backend).not.toBe('webgpu');
      expect(result.fallback).toMatch(/^WebGPU \(WGSL compute shaders\) cannot run here \(.+\), so the best available backend ran instead: (onnx-web|tiny)\.$/);
      expect(await page.locator('[data-fallback]').isVisible()).toBe(true);
      const [cli] = await cliScores(scratch, [result]);
      expectMatchesCli(result, cli!, 'after the fallback');
      await page.screenshot({ path: join(screenshots, 'webgpu-fallback.png'), fullPage: true });
    } finally {
      await plain.close();
    }
  });

  it('ranks candidates as best-of-N and a weighted vote would, as reward-lens rerank does', async () => {
    const page = await openDemo();
    await scoreExample(page, { backend: 'tiny' });
    await afterRun(page, () => page.click('#compare-run'), 'compareRuns');
    const shown = await page.evaluate(() => ({
      problem: (document.getElementById('compare-problem') as HTMLTextAreaElement).value,
      candidates: (document.getElementById('compare-candidates') as HTMLTextAreaElement).value.split(/^\s*---\s*$/m).map((block) => block.trim()),
      order: [...document.querySelectorAll<HTMLElement>('[data-ranking="best-of-n"] [data-candidate]')].map((row) => ({
        index: Number(row.dataset.candidate),
        score: Number(row.dataset.score),
      })),
      votes: [...document.querySelectorAll<HTMLElement>('[data-ranking="weighted-vote"] [data-answer]')].map((row) => ({
        answer: row.dataset.answer,
        total: Number(row.dataset.total),
      })),
      picks: {
        bestOfN: Number(document.querySelector<HTMLElement>('[data-best-of-n]')!.dataset.bestOfN),
        weightedVote: Number(document.querySelector<HTMLElement>('[data-weighted-vote]')!.dataset.weightedVote),
      },
    }));
    expect(shown.candidates).toHaveLength(6);
    const records = join(scratch, 'rerank.jsonl');
    writeFileSync(records, `${JSON.stringify({ problem: shown.problem, candidates: shown.candidates })}\n`);
    const cli = JSON.parse(await reward(['rerank', '--file', records, '--json', '--aggregate', 'min', '--quiet'])) as {
      picks: Record<string, number>;
      answers: { score: number; normalized: string }[];
      votes: { answer: string; score: number; count: number }[];
    };
    expect(shown.picks).toEqual({ bestOfN: cli.picks['best-of-n'], weightedVote: cli.picks['weighted-vote'] });
    for (const { index, score } of shown.order) expect(Math.abs(score - cli.answers[index]!.score), `candidate ${index}`).toBeLessThanOrEqual(tolerance);
    const cliOrder = cli.answers
      .map((answer, index) => ({ index, score: answer.score }))
      .sort((left, right) => right.score - left.score || left.index - right.index);
    expect(shown.order.map((row) => row.index)).toEqual(cliOrder.map((row) => row.index));
    expect(shown.votes.map((vote) => vote.answer)).toEqual(cli.votes.map((vote) => vote.answer));
    shown.votes.forEach((vote, index) => expect(Math.abs(vote.total - cli.votes[index]!.score)).toBeLessThanOrEqual(tolerance * shown.candidates.length));
    await page.locator('#compare-heading').scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(screenshots, 'compare.png'), fullPage: true });
  });

  it('opens a model folder from disk, in safetensors and as an ONNX export, and scores it as the CLI does', async () => {
    const safetensors = join(scratch, 'my-prm');
    await writeTokenClassifierFolder(safetensors);
    const onnx = join(scratch, 'my-prm-onnx');
    await reward(['export', 'onnx', safetensors, onnx]);
    const page = await openDemo();
    await scoreExample(page, { backend: 'auto' });
    await page.click('.model-panel summary');
    const byFolder: PageResult[] = [];
    for (const folder of [safetensors, onnx]) {
      await afterRun(page, () => page.setInputFiles('#folder', folder));
      expect(await page.locator('#model-name').textContent()).toBe(`your folder "${folder.slice(folder.lastIndexOf('/') + 1)}"`);
      const result = await readResult(page);
      expect(result.notes.join('\n')).toMatch(/recipe "trl-token-classification" inferred from config\.json's architecture/);
      byFolder.push(result);
    }
    // The ONNX export runs on onnxruntime-web (the other backends run decoder weights, and say so).
    expect(byFolder[1]!.backend).toBe('onnx-web');
    expect(byFolder[1]!.notes.join('\n')).toMatch(/backend "onnx-web" ran the ONNX graph my-prm-onnx\/onnx\/model_read_positions\.onnx/);
    const [fromSafetensors] = await cliScores(scratch, [byFolder[0]!], ['--model', safetensors]);
    const [fromOnnx] = await cliScores(scratch, [byFolder[1]!], ['--model', onnx]);
    expectMatchesCli(byFolder[0]!, fromSafetensors!, 'the safetensors folder');
    expectMatchesCli(byFolder[1]!, fromOnnx!, 'the ONNX folder');
    await page.screenshot({ path: join(screenshots, 'model-folder.png'), fullPage: true });
    await afterRun(page, () => page.click('#use-default'));
    expect(await page.locator('#model-name').textContent()).toBe('the default PRM (reward-lens-organism-prm)');
  });
});
