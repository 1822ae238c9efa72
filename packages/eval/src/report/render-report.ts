import type { PlotLibrary, ReportData } from './report-data.js';
import { reportPageScript } from './report-page-script.js';
import { reportStylesheet } from './report-stylesheet.js';
import { renderPage } from './render-page.js';

/**
 * A self-contained HTML report (no server, no network): the data as JSON, uPlot inlined, and a
 * small script that draws every figure. Browser-safe: pass the plotting library's text (in Node,
 * `loadPlotLibrary()` from `@reward-lens/eval/node` reads it from node_modules).
 */
export function renderReport(data: ReportData, library: PlotLibrary): string {
  return renderPage({ title: data.title, summary: data.summary, notes: data.notes, data, stylesheet: reportStylesheet, script: reportPageScript }, library);
}
