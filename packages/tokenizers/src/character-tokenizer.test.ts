import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { expectOffsetContract } from '@reward-lens/test-data/offset-contract';
import { createCharacterTokenizer } from './character-tokenizer.js';

describe('the character stand-in tokenizer of a server-side tokenizing engine', () => {
  const tokenizer = createCharacterTokenizer('<extra_0>');

  it('makes the step tag one token and every other code point one token', () => {
    const text = 'x=4<extra_0>y 😀<extra_0>';
    const { ids, offsets } = tokenizer.encode(text);
    const tag = tokenizer.tokenToId('<extra_0>')!;
    expect(ids.filter((id) => id === tag)).toHaveLength(2);
    expect(ids).toHaveLength('x=4'.length + 1 + 'y '.length + 1 + 1);
    expect(offsets[3]).toEqual([3, 12]);
    expect(offsets[6]).toEqual([14, 16]);
    expect(tokenizer.decode(ids)).toBe(text);
    expect(tokenizer.tokenToId('+')).toBe(43);
    expect(tokenizer.tokenToId('ab')).toBeUndefined();
  });

  it('keeps the offset contract and decodes back to the text, for any text', () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(fc.string({ unit: 'grapheme' }), fc.constant(' ки')), { maxLength: 6 }), (parts) => {
        const shepherd = createCharacterTokenizer(' ки');
        const text = parts.join('');
        const encoding = shepherd.encode(text);
        expectOffsetContract(text, encoding);
        expect(shepherd.decode(encoding.ids)).toBe(text);
        expect(encoding.ids.filter((id) => id === shepherd.tokenToId(' ки')).length).toBe(text.split(' ки').length - 1);
      }),
    );
  });
});
