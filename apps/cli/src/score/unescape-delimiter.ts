const escapes: Record<string, string> = { n: '\n', t: '\t', r: '\r', '\\': '\\' };

/**
 * Interprets `\n`, `\t`, `\r` and `\\` in a `--delimiter` value. Shells pass `'\n\n'` through as
 * backslash-n twice, and a literal backslash-n delimiter is almost never what was meant.
 * Any other backslash is kept as typed.
 *
 * @example unescapeDelimiter('\\n\\n') // "\n\n"
 */
export function unescapeDelimiter(text: string): string {
  return text.replace(/\\([ntr\\])/g, (_match, letter: string) => escapes[letter]!);
}
