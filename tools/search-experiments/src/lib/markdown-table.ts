/** A markdown table in the compact form the repository's READMEs use (`|---|`). */
export function markdownTable(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const line = (cells: readonly string[]) => `| ${cells.join(' | ')} |`;
  return [line(header), `|${header.map(() => '---').join('|')}|`, ...rows.map(line)].join('\n');
}

/** A share as a percentage with one decimal (`NaN` as a dash). */
export function percent(value: number): string {
  return Number.isFinite(value) ? `${(100 * value).toFixed(1)}%` : '—';
}

/** A mean count, rounded. */
export function count(value: number): string {
  return Number.isFinite(value) ? Math.round(value).toLocaleString('en-US') : '—';
}
