import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { InvalidInputError } from '@reward-lens/spec';
import { normalizeScoringInput } from '../process-rm/scoring-input.js';
import { segmentSolution } from '../segmenter/index.js';
import { firstLoneSurrogate } from './lone-surrogates.js';

describe('lone surrogates are not text, by one rule everywhere', () => {
  it('firstLoneSurrogate agrees with a UTF-8 round trip (property)', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 40 }), (text) => {
        const wellFormed = new TextDecoder().decode(new TextEncoder().encode(text)) === text;
        expect(firstLoneSurrogate(text) === -1).toBe(wellFormed);
      }),
    );
    expect(firstLoneSurrogate('a😀b')).toBe(-1);
    expect(firstLoneSurrogate('a\ud83d')).toBe(1);
    expect(firstLoneSurrogate('\ude00x')).toBe(0);
  });

  it.each([
    [{ problem: '\ud800', solution: 'a' }, /"problem" holds a lone surrogate \(U\+D800 at character 0\)/],
    [{ problem: 'p', solution: 'ok\udfff' }, /"solution" holds a lone surrogate \(U\+DFFF at character 2\)/],
    [{ problem: 'p', steps: ['a', 'b\ud83d'] }, /"steps"\[1\] holds a lone surrogate \(U\+D83D at character 1\)/],
    [['p\udc00', 's'], /the problem holds a lone surrogate/],
  ])('an input with one is refused with a typed error naming the field (%#)', (input, message) => {
    expect(() => normalizeScoringInput(input as never, 'pair 0')).toThrow(message);
    expect(() => normalizeScoringInput(input as never, 'pair 0')).toThrow(InvalidInputError);
  });

  it('a delimiter holding half of a surrogate pair is refused, not used to split an emoji in two', () => {
    expect(() => segmentSolution('a😀b😀c', { delimiter: '\ud83d' })).toThrow(/the step delimiter holds a lone surrogate \(U\+D83D/);
    expect(segmentSolution('a😀b😀c', { delimiter: '😀' }).steps.map((step) => step.text)).toEqual(['a', 'b', 'c']);
  });
});
