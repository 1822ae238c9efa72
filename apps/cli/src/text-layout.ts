// C0 and C1 controls, DEL, line/paragraph separators and bidirectional overrides: characters that
// move the cursor, recolour the terminal or reorder what follows when printed raw.
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point
const controlCharacters = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

/** Terminal control characters from input shown as visible escapes (`\x1b`, `\u202e`), so printing text cannot drive the terminal. */
export function escapeControlCharacters(text: string): string {
  return text.replace(controlCharacters, (character) => {
    const code = character.charCodeAt(0);
    return code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
  });
}

/** Line breaks shown as `⏎`, tabs as spaces and other controls escaped, so a multi-line step stays on its table row. */
export function oneLine(text: string): string {
  return escapeControlCharacters(text.replace(/\r?\n/g, ' ⏎ ').replace(/\t/g, ' '));
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
 * than a line is left whole rather than broken, unless `breakLongWords` (for text without
 * spaces to break at, such as a chat template): then it fills the line it starts on and goes on
 * at the indent of the next.
 */
export function wrap(text: string, width: number, indent: string, options: { breakLongWords?: boolean } = {}): string[] {
  const length = (value: string) => Array.from(value).length;
  const leading = /^ */.exec(text)![0];
  const lines: string[] = [];
  let current = leading;
  let atLineStart = true;
  for (const piece of text.slice(leading.length).match(/ *\S+/g) ?? []) {
    const fitsOnALine = length(indent + piece.trimStart()) <= width;
    if (!atLineStart && length(current + piece) > width && (fitsOnALine || options.breakLongWords !== true)) {
      lines.push(current);
      current = indent;
      atLineStart = true;
    }
    let rest = atLineStart ? piece.trimStart() : piece;
    while (options.breakLongWords === true && length(current + rest) > width && length(current) < width) {
      const characters = Array.from(rest);
      const room = width - length(current);
      lines.push(current + characters.slice(0, room).join(''));
      current = indent;
      rest = characters.slice(room).join('');
    }
    current += rest;
    atLineStart = false;
  }
  lines.push(current);
  return lines;
}

/** The width to lay text out in: the terminal's, or 80 columns when output goes to a file or pipe. */
export function outputWidth(stream: { isTTY?: boolean; columns?: number }): number {
  return stream.isTTY === true && typeof stream.columns === 'number' && stream.columns > 0 ? stream.columns : 80;
}
