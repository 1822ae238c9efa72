import type { PlotLibrary, ReportData } from './report-data.js';
import { reportPageScript } from './report-page-script.js';
import { reportStylesheet } from './report-stylesheet.js';

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);
}

/** JSON safe inside a `<script>` element: no `</script>`, no `<!--`; NaN and ±Infinity become null. */
function scriptJson(value: unknown): string {
  return JSON.stringify(value, (_key, entry) => (typeof entry === 'number' && !Number.isFinite(entry) ? null : entry))
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

/** Inline scripts must not contain `</script`; uPlot's build does not, and this keeps it so. */
function inlineScript(source: string): string {
  return source.replace(/<\/script/gi, '<\\/script');
}

/**
 * A self-contained HTML report (no server, no network): the data as JSON, uPlot inlined, and a
 * small script that draws every figure. Browser-safe: pass the plotting library's text (in Node,
 * `loadPlotLibrary()` from `@reward-lens/eval/node` reads it from node_modules).
 */
export function renderReport(data: ReportData, library: PlotLibrary): string {
  const summary = data.summary.map((row) => `<tr><th>${escapeHtml(row.label)}</th><td>${escapeHtml(row.value)}</td></tr>`).join('');
  const notes = data.notes.map((note) => `<li>${escapeHtml(note)}</li>`).join('');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(data.title)}</title>
<style>${library.stylesheet}</style>
<style>${reportStylesheet}</style>
</head>
<body>
<header><h1>${escapeHtml(data.title)}</h1><table class="summary">${summary}</table>${notes ? `<ul class="notes">${notes}</ul>` : ''}</header>
<main id="report"></main>
<script type="application/json" id="report-data">${scriptJson(data)}</script>
<script>${inlineScript(library.script)}</script>
<script>${inlineScript(reportPageScript)}</script>
</body>
</html>
`;
}
