import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sharedDataPath } from '@reward-lens/test-data';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadPlotLibrary } from '../node/plot-library.js';
import { readPrmBenchFile } from '../node/read-prmbench-file.js';
import { launchChromium, openCleanPageFile } from '../../test/support/chromium.js';
import { sampleReportData } from '../../test/support/sample-report-data.js';
import type { ReportData } from './report-data.js';
import { renderReport } from './render-report.js';

interface FigureState {
  name: string;
  drawn: boolean;
  expectedSeries: number;
  legendSeries: number;
  inkedPixels: number;
  rows: number;
}

describe('the HTML report', () => {
  let browser: Browser;
  let data: ReportData;
  let html: string;

  beforeAll(async () => {
    data = await sampleReportData((await readPrmBenchFile(sharedDataPath('prmbench/subset400.jsonl'))).records);
    html = renderReport(data, await loadPlotLibrary());
    browser = await launchChromium();
  });
  afterAll(() => browser?.close());

  it('is one self-contained file: no external script, stylesheet or request', () => {
    expect(html).not.toMatch(/<script[^>]+src=/);
    expect(html).not.toMatch(/<link[^>]+href=/);
    // uPlot's licence comment names its home page; what matters is that nothing is loaded from anywhere.
    expect(html).not.toMatch(/(?:src|href|url)\s*[=(]\s*["']?https?:/i);
  });

  it('opens from a file in headless Chromium with every figure drawn', async () => {
    const folder = await mkdtemp(join(tmpdir(), 'reward-lens-report-'));
    const path = join(folder, 'report.html');
    const page = await openCleanPageFile(browser, path, html);

    const figures: FigureState[] = await page.$$eval('[data-figure]', (nodes) =>
      nodes.map((node) => {
        const canvas = node.querySelector('canvas');
        let inkedPixels = 0;
        if (canvas) {
          const pixels = canvas.getContext('2d')!.getImageData(0, 0, canvas.width, canvas.height).data;
          for (let index = 3; index < pixels.length; index += 4) if (pixels[index]! > 0) inkedPixels++;
        }
        return {
          name: node.getAttribute('data-figure')!,
          drawn: node.getAttribute('data-drawn') === 'true',
          expectedSeries: Number(node.getAttribute('data-series') ?? 0),
          // uPlot's legend (not live) has one entry per drawn series.
          legendSeries: node.querySelectorAll('.u-legend .u-series').length,
          inkedPixels,
          rows: node.tagName === 'TABLE' ? node.querySelectorAll('tr').length - 1 : 0,
        };
      }),
    );
    const byName = (name: string) => figures.filter((figure) => figure.name === name);
    const charts = figures.filter((figure) => figure.expectedSeries > 0);
    expect(Number(await page.getAttribute('body', 'data-figures'))).toBe(charts.length);
    for (const chart of charts) {
      expect(chart.drawn, chart.name).toBe(true);
      expect(chart.legendSeries, chart.name).toBe(chart.expectedSeries);
      expect(chart.inkedPixels, `${chart.name} has ink on its canvas`).toBeGreaterThan(500);
    }
    // Every figure the issue asks for, with the series it should have.
    expect(byName('step-curve')).toHaveLength(12);
    expect(byName('step-curve')[0]!.expectedSeries).toBe(4);
    expect(byName('argmin-histogram')).toHaveLength(1);
    expect(byName('bon-finalAccuracy')[0]!.expectedSeries).toBe(5);
    expect(byName('bon-processCorrect')[0]!.expectedSeries).toBe(5);
    expect(byName('reliability-diagram')[0]!.expectedSeries).toBe(3);
    expect(byName('confusion-table')[0]!.rows).toBe(2);
    expect(byName('prmbench-types')[0]!.expectedSeries).toBe(2);
    expect(byName('prmbench-table')[0]!.rows).toBe(Object.keys(data.prmBench!.metrics.byType).length + 1);
    for (const metric of ['accuracy', 'falseCorrect', 'falseWrong']) expect(byName(`mc-${metric}`)[0]!.expectedSeries).toBe(2);
    expect(byName('toy-bon-finalAccuracy')[0]!.expectedSeries).toBe(5);
    expect(byName('toy-bon-steps')).toHaveLength(1);
    expect(byName('toy-bon-table')[0]!.rows).toBe(6);

    const screenshot = join(folder, 'report.png');
    await page.screenshot({ path: screenshot, fullPage: true });
    console.log(`report screenshot: ${screenshot}`);
    await page.close();
  });
});
