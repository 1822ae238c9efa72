/** Line breaks shown as `⏎` and tabs as spaces, so a multi-line step stays on its table row. */
export function oneLine(text: string): string {
  return text.replace(/\r?\n/g, ' ⏎ ').replace(/\t/g, ' ');
}

/**
 * At most `width` characters, ending in `…` when cut. Counts code points, not UTF-16 units,
 * so an emoji is never split in half; wide characters are counted as one (a terminal may show two).
 */
export function truncate(text: string, width: number): string {
  const characters = Array.from(text);
  if (characters.length <= width) return text;
  if (width <= 1) return '…'.slice(0, Math.max(width, 0));
  return `${characters.slice(0, width - 1).join('')}…`;
}

/**
 * Wraps at spaces to `width`; the first line keeps its own leading spaces and continuation lines
 * start with `indent`. Spacing within a line is kept (column padding survives). A word longer
 * than a line is left whole rather than broken.
 */
export function wrap(text: string, width: number, indent: string): string[] {
  const leading = /^ */.exec(text)![0];
  const lines: string[] = [];
  let current = leading;
  let atLineStart = true;
  for (const piece of text.slice(leading.length).match(/ *\S+/g) ?? []) {
    if (!atLineStart && Array.from(current + piece).length > width) {
      lines.push(current);
      current = indent;
      atLineStart = true;
    }
    current += atLineStart ? piece.trimStart() : piece;
    atLineStart = false;
  }
  lines.push(current);
  return lines;
}

/** The width to lay text out in: the terminal's, or 80 columns when output goes to a file or pipe. */
export function outputWidth(stream: { isTTY?: boolean; columns?: number }): number {
  return stream.isTTY === true && typeof stream.columns === 'number' && stream.columns > 0 ? stream.columns : 80;
}
