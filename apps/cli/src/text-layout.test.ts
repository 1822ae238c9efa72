import { describe, expect, it } from 'vitest';
import { escapeControlCharacters, oneLine, outputWidth, truncate, wrap } from './text-layout.js';

describe('text layout', () => {
  it('truncate cuts to the width with an ellipsis, never inside a surrogate pair', () => {
    expect(truncate('abcdef', 6)).toBe('abcdef');
    expect(truncate('abcdef', 4)).toBe('abc…');
    expect(truncate('😀😀😀😀', 3)).toBe('😀😀…');
  });

  it('oneLine shows line breaks as ⏎', () => {
    expect(oneLine('a\nb\r\nc\td')).toBe('a ⏎ b ⏎ c d');
  });

  it('control characters from the input are shown as escapes, never sent to the terminal', () => {
    expect(oneLine('red \u001b[31mX\u001b[0m \u0007 \u009b2J \u202eevil')).toBe('red \\x1b[31mX\\x1b[0m \\x07 \\x9b2J \\u202eevil');
    expect(escapeControlCharacters('plain, é and 😀 stay')).toBe('plain, é and 😀 stay');
    for (let code = 0; code < 0x2070; code++) {
      const character = String.fromCharCode(code);
      if (character === '\n' || character === '\t') continue;
      // biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point
      expect(/[\u0000-\u001f\u007f-\u009f]/.test(oneLine(character))).toBe(false);
    }
  });

  it("wrap keeps the first line's indent and indents continuation lines", () => {
    expect(wrap('  note: one two three four', 16, '        ')).toEqual(['  note: one two', '        three', '        four']);
    expect(wrap('short', 80, '  ')).toEqual(['short']);
    expect(wrap('label    value that wraps', 20, '         ')).toEqual(['label    value that', '         wraps']);
  });

  it('wrap leaves a long word whole, or breaks it to fill lines when asked', () => {
    expect(wrap('label  abcdefghijkl', 10, '       ')).toEqual(['label', '       abcdefghijkl']);
    expect(wrap('label  abcdefghijkl xy', 10, '       ', { breakLongWords: true })).toEqual([
      'label  abc',
      '       def',
      '       ghi',
      '       jkl',
      '       xy',
    ]);
    expect(wrap('label  ab cd', 10, '       ', { breakLongWords: true })).toEqual(['label  ab', '       cd']);
  });

  it('outputWidth is the terminal width, or 80 off a terminal', () => {
    expect(outputWidth({ isTTY: true, columns: 132 })).toBe(132);
    expect(outputWidth({ isTTY: false, columns: 132 })).toBe(80);
    expect(outputWidth({})).toBe(80);
  });
});
