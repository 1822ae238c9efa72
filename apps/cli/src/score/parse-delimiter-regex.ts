import { UsageError } from '../usage-error.js';

/**
 * A `--delimiter-regex` value as a RegExp: a bare pattern (`\n+`), or `/pattern/flags` when flags
 * are needed (`/^step \d+:/im`). A pattern that is not valid, or that matches the empty string
 * (it would split between every character), is a usage error here rather than one error per record later.
 */
export function parseDelimiterRegex(text: string, usage: string): RegExp {
  const literal = /^\/(.*)\/([a-z]*)$/s.exec(text);
  let pattern: RegExp;
  try {
    pattern = literal ? new RegExp(literal[1]!, literal[2]) : new RegExp(text);
  } catch (error) {
    throw new UsageError(`--delimiter-regex is not a valid regular expression: ${error instanceof Error ? error.message : String(error)}`, usage);
  }
  if (new RegExp(pattern.source, pattern.flags.replace(/[gy]/g, '')).test('')) {
    throw new UsageError(`--delimiter-regex ${String(pattern)} matches the empty string; a delimiter must match at least one character`, usage);
  }
  return pattern;
}
