import { RE2JS } from 're2js';
import { InvalidInputError } from '@reward-lens/spec';
import type { CharSpan } from '@reward-lens/tokenizers';
import type { DelimiterMatcher } from './types.js';

const flagBits: Record<string, number> = { i: RE2JS.CASE_INSENSITIVE, m: RE2JS.MULTILINE, s: RE2JS.DOTALL };

/**
 * A regular-expression delimiter matched by RE2JS, a port of RE2: matching time is linear in the
 * text for every pattern, so a pattern from an untrusted source (`(a+)+$`) cannot hang the process.
 * RE2 syntax has no backreferences or lookaround; such a pattern is refused with the engine's reason.
 * Flags: `i`, `m`, `s` (`g` and `y` are accepted and ignored: every match is used).
 *
 * @example
 * const prm = await ProcessRM.fromTiny({ delimiter: linearTimeDelimiter(patternTheUserTyped) });
 */
export function linearTimeDelimiter(pattern: string, flags = ''): DelimiterMatcher {
  const location = 'delimiter';
  let bits = 0;
  for (const flag of flags) {
    if (flag === 'g' || flag === 'y' || flag === 'u') continue;
    const bit = flagBits[flag];
    if (bit === undefined) throw new InvalidInputError(`unsupported regular-expression flag "${flag}" (supported: i, m, s)`, { location });
    bits |= bit;
  }
  let compiled: RE2JS;
  try {
    compiled = RE2JS.compile(pattern, bits);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new InvalidInputError(`/${pattern}/${flags} is not a pattern the linear-time engine accepts: ${reason}`, { location, cause: error });
  }
  const description = `/${pattern}/${flags.replace(/[gyu]/g, '')}`;
  if (compiled.matcher('').find()) {
    throw new InvalidInputError(`the step delimiter ${description} matches the empty string; a delimiter must match at least one character`, { location });
  }
  return {
    description,
    matchSpans(text: string): CharSpan[] {
      const matcher = compiled.matcher(text);
      const spans: CharSpan[] = [];
      while (matcher.find()) {
        const start = matcher.start();
        const end = matcher.end();
        if (end === start) {
          throw new InvalidInputError(`the step delimiter ${description} matches the empty string at character ${start}`, { location });
        }
        spans.push([start, end]);
      }
      return spans;
    },
  };
}
