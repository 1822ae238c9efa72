import type { PlotLibrary } from '../report/report-data.js';
import { reportStylesheet } from '../report/report-stylesheet.js';
import { renderPage } from '../report/render-page.js';
import type { InspectData } from './inspect-data.js';
import { inspectPageScript, inspectStylesheet } from './inspect-page-script.js';

/** The inspect page as one self-contained HTML file (the report's page, with its own drawing). Browser-safe. */
export function renderInspectPage(data: InspectData, library: PlotLibrary): string {
  return renderPage(
    { title: data.title, summary: data.summary, notes: data.notes, data, stylesheet: reportStylesheet + inspectStylesheet, script: inspectPageScript },
    library,
  );
}
