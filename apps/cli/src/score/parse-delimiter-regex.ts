import { InvalidInputError, linearTimeDelimiter, type DelimiterMatcher } from '@reward-lens/core';
import { UsageError } from '../usage-error.js';

/**
 * A `--delimiter-regex` value as a linear-time matcher: a bare pattern (`\n+`), or `/pattern/flags`
 * when flags are needed (`/^step \d+:/im`). Patterns run on RE2's engine, so a catastrophic pattern
 * (`(a+)+$`) cannot hang the run; one RE2 cannot run (a backreference, lookaround), or that matches
 * the empty string (it would split between every character), is a usage error here rather than one
 * error per record later.
 */
export function parseDelimiterRegex(text: string, usage: string): DelimiterMatcher {
  const literal = /^\/(.*)\/([a-z]*)$/s.exec(text);
  try {
    return literal ? linearTimeDelimiter(literal[1]!, literal[2]) : linearTimeDelimiter(text);
  } catch (error) {
    if (!InvalidInputError.isInstance(error)) throw error;
    throw new UsageError(`--delimiter-regex: ${error.message.replace(/^delimiter: /, '')}`, usage);
  }
}
