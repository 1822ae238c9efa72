import { readFile, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import type { PlotLibrary, ReportData } from '../report/report-data.js';
import { renderReport } from '../report/render-report.js';
import type { InspectData } from '../inspect/inspect-data.js';
import { renderInspectPage } from '../inspect/render-inspect-page.js';

/** uPlot's browser build and stylesheet, read from node_modules, for inlining into a report. */
export async function loadPlotLibrary(): Promise<PlotLibrary> {
  const require = createRequire(import.meta.url);
  const entry = require.resolve('uplot/dist/uPlot.iife.min.js');
  const [script, stylesheet] = await Promise.all([readFile(entry, 'utf8'), readFile(entry.replace(/uPlot\.iife\.min\.js$/, 'uPlot.min.css'), 'utf8')]);
  return { script, stylesheet };
}

/** Renders a report and writes it as one self-contained HTML file. */
export async function writeReport(path: string, data: ReportData): Promise<void> {
  await writeFile(path, renderReport(data, await loadPlotLibrary()));
}

/** Renders the inspect page and writes it as one self-contained HTML file. */
export async function writeInspectPage(path: string, data: InspectData): Promise<void> {
  await writeFile(path, renderInspectPage(data, await loadPlotLibrary()));
}
