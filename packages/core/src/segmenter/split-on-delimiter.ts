import { requireWellFormedText } from '../text/lone-surrogates.js';
import { InvalidInputError } from '@reward-lens/spec';
import type { CharSpan } from '@reward-lens/tokenizers';
import type { DelimiterMatcher, StepDelimiter } from './types.js';

export interface DelimiterSplit {
  /** The raw stretches between delimiter matches (and before the first, after the last), untrimmed. */
  pieces: CharSpan[];
  /** How many times the delimiter matched. */
  matchCount: number;
}

/** A delimiter that finds its own matches (not a string, not a RegExp). */
export function isDelimiterMatcher(delimiter: unknown): delimiter is DelimiterMatcher {
  return (
    typeof delimiter === 'object' &&
    delimiter !== null &&
    !(delimiter instanceof RegExp) &&
    typeof (delimiter as DelimiterMatcher).matchSpans === 'function' &&
    typeof (delimiter as DelimiterMatcher).description === 'string'
  );
}

/** A global copy, so matching neither needs the caller's `g` flag nor moves the caller's `lastIndex`. */
function toGlobalRegExp(delimiter: RegExp): RegExp {
  // A sticky flag would stop the scan at the first gap between matches; splitting wants every match.
  const flags = delimiter.flags.replace(/[gy]/g, '');
  return new RegExp(delimiter.source, `${flags}g`);
}

function matchSpans(solution: string, delimiter: StepDelimiter): CharSpan[] {
  if (typeof delimiter === 'string') {
    if (delimiter.length === 0) {
      throw new InvalidInputError('the step delimiter is an empty string', { location: 'options.delimiter' });
    }
    // Half of a surrogate pair would split a character (an emoji) into halves.
    requireWellFormedText(delimiter, 'the step delimiter', 'options.delimiter');
    const spans: CharSpan[] = [];
    let index = solution.indexOf(delimiter);
    while (index !== -1) {
      spans.push([index, index + delimiter.length]);
      index = solution.indexOf(delimiter, index + delimiter.length);
    }
    return spans;
  }
  if (isDelimiterMatcher(delimiter)) return delimiter.matchSpans(solution);
  if (!(delimiter instanceof RegExp)) {
    throw new InvalidInputError('the step delimiter must be a string, a RegExp or a delimiter matcher', { location: 'options.delimiter' });
  }
  const pattern = toGlobalRegExp(delimiter);
  // Checked on "" as well as on the solution, so the error does not depend on the text at hand.
  if (pattern.test('')) {
    throw new InvalidInputError(`the step delimiter ${String(delimiter)} matches the empty string`, {
      location: 'options.delimiter',
    });
  }
  pattern.lastIndex = 0;
  const spans: CharSpan[] = [];
  for (const match of solution.matchAll(pattern)) {
    if (match[0].length === 0) {
      throw new InvalidInputError(`the step delimiter ${String(delimiter)} matches the empty string at character ${match.index}`, {
        location: 'options.delimiter',
      });
    }
    spans.push([match.index, match.index + match[0].length]);
  }
  return spans;
}

/** Splits `solution` at every (non-overlapping, left-to-right) match of the delimiter. */
export function splitOnDelimiter(solution: string, delimiter: StepDelimiter): DelimiterSplit {
  const matches = matchSpans(solution, delimiter);
  const pieces: CharSpan[] = [];
  let cursor = 0;
  for (const [matchStart, matchEnd] of matches) {
    pieces.push([cursor, matchStart]);
    cursor = matchEnd;
  }
  pieces.push([cursor, solution.length]);
  return { pieces, matchCount: matches.length };
}
