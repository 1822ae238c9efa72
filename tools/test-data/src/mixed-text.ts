/**
 * Test-only fast-check arbitraries shared by the tokenizer, segmenter and mapping tests. Not
 * exported from any index (it imports fast-check, a dev dependency).
 *
 * Text mixes what breaks offset code: multi-unit characters (surrogate pairs, ZWJ sequences, skin
 * tones, variation selectors), combining marks, CJK, CRLF, NBSP, and the pieces our byte BPE merges
 * across boundaries (`".\n"`, `" = "`, `"\nStep"`).
 */
import fc from 'fast-check';

const trickyFragments = [
  'a',
  'the',
  'The',
  'Then',
  ' ',
  '  ',
  '\t',
  '\n',
  '\r\n',
  '\n\n',
  '.',
  '.\n',
  ':\n',
  ', ',
  ' = ',
  '=',
  'Step',
  '\nStep',
  'x',
  '+',
  '*',
  '\\frac',
  '$$',
  '12',
  '100',
  '😀',
  '👍🏽',
  '👨‍👩‍👧',
  '❤️',
  '\u200d',
  '\ufe0f',
  'e\u0301',
  'é',
  '的',
  '中文',
  'к',
  'ки',
  ' ки',
  '×',
  '√',
  '≤',
  '\u00a0',
  '\u2028',
];

/** One short piece of text: a tricky constant, a few random graphemes or code points, or a number. */
export const textFragment: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...trickyFragments) },
  { weight: 2, arbitrary: fc.string({ unit: 'grapheme-ascii', maxLength: 6 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'grapheme', maxLength: 3 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 3 }) },
  { weight: 1, arbitrary: fc.nat(99_999).map(String) },
);

/** Free text of up to `maxFragments` fragments (possibly empty). */
export function mixedText(maxFragments = 12): fc.Arbitrary<string> {
  return fc.array(textFragment, { maxLength: maxFragments }).map((fragments) => fragments.join(''));
}

/** A JavaScript string that is not well-formed UTF-16: lone surrogates among text. */
export const textWithLoneSurrogates: fc.Arbitrary<string> = fc
  .array(fc.oneof(textFragment, fc.constantFrom('\ud800', '\udbff', '\udc00', '\udfff')), { maxLength: 8 })
  .map((fragments) => fragments.join(''));

const paddingWhitespace = fc.constantFrom('', '', ' ', '  ', '\t', '\u00a0', ' \t');

/**
 * A step: whitespace padding around a core that has visible content and none of `forbidden`'s
 * characters (other than spaces), so joining steps with the delimiter cannot create or hide a match.
 */
export function stepText(forbidden: string): fc.Arbitrary<string> {
  const forbiddenCharacters = new Set([...forbidden, '\n', '\r'].filter((character) => character !== ' '));
  const core = fc
    .array(textFragment, { minLength: 1, maxLength: 6 })
    .map((fragments) => [...fragments.join('')].filter((character) => !forbiddenCharacters.has(character)).join(''))
    .filter((text) => text.trim().length > 0);
  return fc.tuple(paddingWhitespace, core, paddingWhitespace).map(([before, text, after]) => before + text + after);
}
