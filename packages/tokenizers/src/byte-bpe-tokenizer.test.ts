import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { InvalidInputError } from '@reward-lens/spec';
import { createByteBpeTokenizer } from './byte-bpe-tokenizer.js';
import { DEFAULT_MERGES } from './default-merges.js';
import { mixedText, textWithLoneSurrogates } from '@reward-lens/test-data/mixed-text';
import { expectOffsetContract, tokenRuns } from '@reward-lens/test-data/offset-contract';
import type { Encoding } from './tokenizer.js';

const tokenizer = createByteBpeTokenizer();
const taggedTokenizer = createByteBpeTokenizer({ addedTokens: ['<extra_0>', ' ки', '<extra_10>'] });

function pieces(encoding: Encoding): string[] {
  return encoding.ids.map((id) => tokenizer.decode([id]));
}

/** The invariants `Encoding.offsets` promises, plus: each run of tokens decodes to exactly its slice. */
function expectExactOffsets(text: string, encoding: Encoding, decode: (ids: number[]) => string): void {
  expectOffsetContract(text, encoding);
  for (const { from, to, span } of tokenRuns(encoding.offsets)) {
    expect(decode(encoding.ids.slice(from, to))).toBe(text.slice(...span));
  }
}

describe('byte BPE tokenizer: vocabulary', () => {
  it('has 3 specials, 256 bytes and 253 merges: 512 ids', () => {
    expect(DEFAULT_MERGES).toHaveLength(253);
    expect(tokenizer.vocabSize).toBe(512);
    expect([tokenizer.padTokenId, tokenizer.bosTokenId, tokenizer.eosTokenId]).toEqual([0, 1, 2]);
    expect(['<pad>', '<s>', '</s>'].map((token) => tokenizer.tokenToId(token))).toEqual([0, 1, 2]);
    expect(tokenizer.tokenToId('A')).toBe(3 + 0x41);
    expect(tokenizer.tokenToId('.\n')).toBe(259);
    expect(tokenizer.tokenToId('not one token')).toBeUndefined();
  });

  it('orders merges like a learned list: every merged string encodes alone to that one token', () => {
    for (const [left, right] of DEFAULT_MERGES) {
      if (typeof left !== 'string' || typeof right !== 'string') continue;
      const merged = left + right;
      expect(tokenizer.encode(merged).ids, JSON.stringify(merged)).toEqual([tokenizer.tokenToId(merged)]);
    }
  });

  it('decodes the specials to nothing and rejects ids outside the vocabulary', () => {
    expect(tokenizer.decode([1, 3 + 0x68, 3 + 0x69, 2, 0])).toBe('hi');
    expect(() => tokenizer.decode([512])).toThrow(InvalidInputError);
    expect(() => tokenizer.decode([1.5])).toThrow(/ids\[0\]/);
  });
});

describe('byte BPE tokenizer: merges cross step delimiters', () => {
  it('merges ".\\n" into one token in "x = 4.\\nThen"', () => {
    const text = 'x = 4.\nThen';
    const encoding = tokenizer.encode(text);
    expect(pieces(encoding)).toEqual(['x', ' = ', '4', '.\n', 'Then']);
    expect(encoding.offsets[3]).toEqual([5, 7]);
  });

  it("merges a delimiter with the next step's first word, and blank lines and CRLF", () => {
    expect(pieces(tokenizer.encode('a\nStep 2'))).toEqual(['a', '\nStep', ' 2']);
    expect(pieces(tokenizer.encode('done.\n\nNext'))).toEqual(['d', 'on', 'e', '.\n\n', 'Next']);
    expect(pieces(tokenizer.encode('x.\r\ny:\n'))).toContain('.\r\n');
    expect(pieces(tokenizer.encode('x.\r\ny:\n'))).toContain(':\n');
  });

  it("gives a token that holds part of a character the whole character's span", () => {
    const text = 'a👨‍👩b';
    const encoding = tokenizer.encode(text);
    // 👨 is F0 9F 91 A8: "F0 9F" is one token, then single bytes; ZWJ merges with the next emoji's F0 9F.
    expect(encoding.offsets).toEqual([
      [0, 1],
      [1, 3],
      [1, 3],
      [1, 3],
      [3, 6],
      [4, 6],
      [4, 6],
      [6, 7],
    ]);
    expect(tokenizer.decode(encoding.ids)).toBe(text);
  });

  it('is deterministic and encodes the empty string to nothing', () => {
    const text = 'First, 2+2=4.\nThen, 4*3=12.\nFinally, 12-5=7.';
    expect(createByteBpeTokenizer().encode(text)).toEqual(tokenizer.encode(text));
    expect(tokenizer.encode('')).toEqual({ ids: [], offsets: [] });
  });

  it('encodes long text without quadratic blow-up and round-trips it', () => {
    const text = 'Step 1: the total number of apples is 12 + 25 = 37.\n'.repeat(1000) + 'a'.repeat(50_000);
    const encoding = tokenizer.encode(text);
    expect(tokenizer.decode(encoding.ids)).toBe(text);
    expect(encoding.offsets.at(-1)![1]).toBe(text.length);
  });
});

describe('byte BPE tokenizer: added tokens', () => {
  it('makes each added token a single id after the merges, matched before BPE', () => {
    expect(taggedTokenizer.vocabSize).toBe(515);
    const text = 'Step 1: 2+2=4 ки\nStep 2: done<extra_0><extra_10>';
    const encoding = taggedTokenizer.encode(text);
    const tagIds = [512, 513, 514];
    expect(encoding.ids.filter((id) => tagIds.includes(id))).toEqual([513, 512, 514]);
    const tagIndex = encoding.ids.indexOf(513);
    expect(encoding.offsets[tagIndex]).toEqual([13, 16]);
    expect(taggedTokenizer.decode(encoding.ids)).toBe(text);
    expect(taggedTokenizer.decode([514])).toBe('<extra_10>');
    expect(taggedTokenizer.tokenToId(' ки')).toBe(513);
    expect(taggedTokenizer.tokenToId('<extra_10>')).toBe(514);
  });

  it('prefers the longest added token that starts at a position', () => {
    const encoding = taggedTokenizer.encode('<extra_10>');
    expect(encoding.ids).toEqual([514]);
  });

  it('rejects empty, duplicate and special-colliding added tokens', () => {
    expect(() => createByteBpeTokenizer({ addedTokens: [''] })).toThrow(/addedTokens\[0\]/);
    expect(() => createByteBpeTokenizer({ addedTokens: ['<x>', '<x>'] })).toThrow(/addedTokens\[1\]/);
    expect(() => createByteBpeTokenizer({ addedTokens: ['</s>'] })).toThrow(InvalidInputError);
  });
});

describe('byte BPE tokenizer: properties', () => {
  it('round-trips and gives exact offsets on mixed text (emoji, ZWJ, combining marks, CJK, CRLF)', () => {
    fc.assert(
      fc.property(mixedText(16), (text) => {
        const encoding = tokenizer.encode(text);
        expect(tokenizer.decode(encoding.ids)).toBe(text);
        expectExactOffsets(text, encoding, (ids) => tokenizer.decode(ids));
      }),
      { numRuns: 600 },
    );
  });

  it('keeps the same guarantees with added tokens in the text', () => {
    const withTags = fc
      .array(fc.oneof(mixedText(4), fc.constantFrom('<extra_0>', ' ки', '<extra_10>', '<extra_1')), { maxLength: 6 })
      .map((parts) => parts.join(''));
    fc.assert(
      fc.property(withTags, (text) => {
        const encoding = taggedTokenizer.encode(text);
        expect(taggedTokenizer.decode(encoding.ids)).toBe(text);
        expectExactOffsets(text, encoding, (ids) => taggedTokenizer.decode(ids));
        encoding.ids.forEach((id, index) => {
          if (id >= 512) expect(text.slice(...encoding.offsets[index]!)).toBe(taggedTokenizer.addedTokens[id - 512]);
        });
      }),
      { numRuns: 300 },
    );
  });

  it('round-trips strings that are not well-formed UTF-16 (lone surrogates)', () => {
    fc.assert(
      fc.property(textWithLoneSurrogates, (text) => {
        const encoding = tokenizer.encode(text);
        expect(tokenizer.decode(encoding.ids)).toBe(text);
        expectExactOffsets(text, encoding, (ids) => tokenizer.decode(ids));
      }),
      { numRuns: 200 },
    );
  });
});
