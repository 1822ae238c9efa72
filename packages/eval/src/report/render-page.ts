import type { PlotLibrary } from './report-data.js';

export function escapeHtml(text: string): string {
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

/** What a self-contained page holds: a header (title, summary table, notes), the data as JSON, and the script that draws it. */
export interface PageContent {
  title: string;
  summary: readonly { label: string; value: string }[];
  notes: readonly string[];
  data: unknown;
  stylesheet: string;
  /** Reads `#report-data` and draws into `#report` (see `pageKitScript`). */
  script: string;
}

/**
 * One self-contained HTML page (no server, no network): the data as JSON, uPlot inlined, and the
 * page's script. The evaluation report and the inspect page are both this page.
 */
export function renderPage(content: PageContent, library: PlotLibrary): string {
  const summary = content.summary.map((row) => `<tr><th>${escapeHtml(row.label)}</th><td>${escapeHtml(row.value)}</td></tr>`).join('');
  const notes = content.notes.map((note) => `<li>${escapeHtml(note)}</li>`).join('');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(content.title)}</title>
<style>${library.stylesheet}</style>
<style>${content.stylesheet}</style>
</head>
<body>
<header><h1>${escapeHtml(content.title)}</h1><table class="summary">${summary}</table>${notes ? `<ul class="notes">${notes}</ul>` : ''}</header>
<main id="report"></main>
<script type="application/json" id="report-data">${scriptJson(content.data)}</script>
<script>${inlineScript(library.script)}</script>
<script>${inlineScript(content.script)}</script>
</body>
</html>
`;
}
