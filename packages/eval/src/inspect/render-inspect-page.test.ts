import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ProcessRM } from '@reward-lens/core';
import '@reward-lens/backend-tiny/register';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadPlotLibrary } from '../node/plot-library.js';
import { createSeededRandom } from '../random/seeded-random.js';
import { launchChromium, openCleanPageFile } from '../../test/support/chromium.js';
import { probeBattery } from './correctness-probes.js';
import type { InspectData } from './inspect-data.js';
import { inspectSolution } from './inspect-solution.js';
import { renderInspectPage } from './render-inspect-page.js';

const pair = ['Compute (2+2)*3-5.', 'First, 2+2=4.\nThen, 4*3=12.\nFinally, 12-5=7.'] as const;

describe('the inspect page', () => {
  let browser: Browser;
  let data: InspectData;
  let folder: string;

  beforeAll(async () => {
    const prm = await ProcessRM.fromTiny({ seed: 0 });
    const random = createSeededRandom(3);
    const solutions = Array.from({ length: 40 }, () => {
      const steps = Array.from({ length: 3 }, () => `even ${random.integer(0, 9)}`);
      return { problem: 'Check each claim.', steps, stepLabels: steps.map((step) => (Number(step.at(-1)) % 2 === 0 ? 1 : 0)) };
    });
    const probes = { ...(await probeBattery(prm, solutions, { seed: 1 })), data: '40 parity claims' };
    data = await inspectSolution(prm, pair, { integrationSteps: 16, probes });
    browser = await launchChromium();
    folder = await mkdtemp(join(tmpdir(), 'reward-lens-inspect-'));
  });
  afterAll(async () => {
    await browser?.close();
    await rm(folder, { recursive: true, force: true });
  });

  it('holds the layer × step matrix, the attributions and the probes as data', () => {
    expect(data.readout.layers).toEqual([0, 1, 2]);
    expect(data.readout.scores.map((row) => row.length)).toEqual([3, 3, 3]);
    expect(data.readout.scoreKind).toBe('raw');
    expect(data.attribution!.steps.map((step) => step.tokens.length)).toEqual(data.steps.map((step) => step.readTokenIndex + 1));
    expect(data.summary.find((row) => row.label === 'steps')!.value).toBe('3 (delimiter)');
  });

  it('renders in headless Chromium from one file: heatmap, per-layer curves, attributions over the text, probe curves', async () => {
    const html = renderInspectPage(data, await loadPlotLibrary());
    expect(html).not.toMatch(/<script[^>]+src=/);
    const path = join(folder, 'inspect.html');
    const page = await openCleanPageFile(browser, path, html);
    // heatmap + layer curves + one attribution per step + top tokens + two probe charts.
    expect(Number(await page.getAttribute('body', 'data-figures'))).toBe(1 + 1 + 3 + 1 + 2);

    const cells = await page.$$eval('[data-figure="readout-heatmap"] td', (nodes) =>
      nodes.map((node) => ({
        layer: node.getAttribute('data-layer'),
        step: node.getAttribute('data-step'),
        text: node.textContent,
        colour: getComputedStyle(node).backgroundColor,
      })),
    );
    expect(cells).toHaveLength(9);
    expect(cells[8]).toMatchObject({ layer: '2', step: '2', text: data.readout.scores[2]![2]!.toFixed(3) });
    expect(new Set(cells.map((cell) => cell.colour)).size).toBeGreaterThan(3);

    const charts = await page.$$eval('figure[data-series]', (nodes) =>
      nodes.map((node) => {
        const canvas = node.querySelector('canvas')!;
        const pixels = canvas.getContext('2d')!.getImageData(0, 0, canvas.width, canvas.height).data;
        let inked = 0;
        for (let index = 3; index < pixels.length; index += 4) if (pixels[index]! > 0) inked++;
        return {
          name: node.getAttribute('data-figure'),
          series: Number(node.getAttribute('data-series')),
          legend: node.querySelectorAll('.u-legend .u-series').length,
          inked,
        };
      }),
    );
    expect(charts.map((chart) => chart.name)).toEqual(['layer-curves', 'probe-accuracy', 'probe-auroc']);
    expect(charts[0]).toMatchObject({ series: 3, legend: 3 });
    for (const chart of charts) expect(chart.inked, chart.name!).toBeGreaterThan(500);

    const attributions = await page.$$eval('[data-figure="attribution"]', (nodes) =>
      nodes.map((node) => ({
        tokens: node.querySelectorAll('.token').length,
        text: node.querySelector('.text')!.textContent,
        colours: Array.from(node.querySelectorAll<HTMLElement>('.token'), (span) => span.style.background),
      })),
    );
    expect(attributions.map((entry) => entry.tokens)).toEqual(data.steps.map((step) => step.readTokenIndex + 1));
    for (const entry of attributions) expect(entry.text).toBe(data.text);
    const before = attributions[1]!.colours;
    await page.selectOption('select[data-control="attribution-method"]', 'gradientTimesInput');
    const after = await page.$$eval('[data-figure="attribution"][data-step="1"] .token', (nodes) =>
      nodes.map((node) => (node as HTMLElement).style.background),
    );
    expect(after).toHaveLength(before.length);
    expect(after).not.toEqual(before);
    expect(await page.$$eval('[data-figure="top-tokens"] tr', (rows) => rows.length)).toBe(1 + 2 * 3);
    await page.screenshot({ path: join(folder, 'inspect.png'), fullPage: true });
    await page.close();
  });
});
