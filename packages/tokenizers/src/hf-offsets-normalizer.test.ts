import { Tokenizer } from '@huggingface/tokenizers';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { identityAligned } from './hf-offsets-aligned-text.js';
import { byteLevelTokenBytes, spellBytesByteLevel } from './hf-offsets-byte-level.js';
import { normalizeChunked } from './hf-offsets-chunked.js';
import { offsetsProblem } from './hf-offsets-gaps.js';
import { createHfTokenizer } from './hf-tokenizer.js';
import { mixedText, type Json } from '@reward-lens/test-data/tokenizer-checks';

const encoder = new TextEncoder();
const spell = (text: string) => spellBytesByteLevel(encoder.encode(text));

/** A tiny byte-level BPE file (the 256 bytes and a few merges) with the given normalizer. */
function byteLevelFile(normalizer: Json | null, addPrefixSpace = false): Json {
  const mergeList: [string, string][] = [
    [spell(' '), 't'],
    ['h', 'e'],
    [spell(' t'), 'he'],
    ['i', 'n'],
    ['f', 'i'],
    [spell(' '), spell(' ')],
    ...[spell('ο'), spell('ς')].map((pair): [string, string] => [pair.slice(0, 1), pair.slice(1)]),
  ];
  const vocab: Record<string, number> = {};
  for (let byte = 0; byte < 256; byte += 1) vocab[spellBytesByteLevel(Uint8Array.of(byte))] = byte;
  for (const [left, right] of mergeList) vocab[left + right] ??= Object.keys(vocab).length;
  return {
    added_tokens: [],
    normalizer,
    pre_tokenizer: { type: 'ByteLevel', add_prefix_space: addPrefixSpace, use_regex: true },
    post_processor: null,
    decoder: { type: 'ByteLevel' },
    model: { type: 'BPE', vocab, merges: mergeList },
  };
}

const hardText = fc
  .array(
    fc.oneof(
      { weight: 2, arbitrary: mixedText },
      {
        weight: 3,
        arbitrary: fc.constantFrom(
          'ﬁ',
          'İ',
          'ΟΔΟΣ ',
          'ΣΑΣ.',
          'ß',
          '\u00a0',
          '\u0007',
          '～',
          'ｶﾞ',
          'ㄱㅏ',
          '½',
          '①',
          'Ⅻ',
          '  \t',
          ' A ',
          'Ǆ',
          '\ufb01',
          '\u0345',
        ),
      },
    ),
    { maxLength: 6 },
  )
  .map((parts) => parts.join(''));

/**
 * Library ids; offsets that cover the text; and each group of tokens sharing a span spells its
 * slice normalized (`normalizeSlice`, told whether the group starts or ends the text), with one
 * inserted space allowed in front of the first group when the pre-tokenizer adds a prefix space.
 */
function checkFile(file: Json, normalizeSlice: (slice: string, first: boolean, last: boolean) => string, numRuns = 150): void {
  const tokenizer = createHfTokenizer(file);
  const reference = new Tokenizer(file, {});
  fc.assert(
    fc.property(hardText, (text) => {
      const { ids, offsets } = tokenizer.encode(text);
      const expected = text.length === 0 ? { ids: [], tokens: [] } : reference.encode(text, { add_special_tokens: false });
      expect(ids).toEqual(expected.ids);
      expect(offsetsProblem(offsets, text.length)).toBeNull();
      let groupStart = 0;
      for (let index = 1; index <= ids.length; index += 1) {
        if (index < ids.length && offsets[index]![0] < offsets[index - 1]![1]) continue;
        const [start, end] = [offsets[groupStart]![0], offsets[index - 1]![1]];
        const spelled = expected.tokens.slice(groupStart, index).flatMap((token) => [...byteLevelTokenBytes(token)!]);
        const slice = [...encoder.encode(normalizeSlice(text.slice(start, end), groupStart === 0, index === ids.length))];
        const prefixed = groupStart === 0 && spelled.length === slice.length + 1 && spelled[0] === 0x20;
        expect(prefixed ? spelled.slice(1) : spelled).toEqual(slice);
        groupStart = index;
      }
    }),
    { numRuns },
  );
}

const libraryNormalizer = (config: Json) => new Tokenizer(byteLevelFile(config), {}).normalizer!;

describe('hf offsets through normalizers', () => {
  for (const config of [
    { type: 'NFC' },
    { type: 'NFKC' },
    { type: 'NFKD' },
    { type: 'Sequence', normalizers: [{ type: 'NFKC' }, { type: 'Lowercase' }] },
    { type: 'Sequence', normalizers: [{ type: 'NFD' }, { type: 'StripAccents' }, { type: 'Lowercase' }] },
    { type: 'Precompiled', precompiled_charsmap: '' },
    { type: 'Replace', pattern: { Regex: '\\s+' }, content: ' ' },
    { type: 'Replace', pattern: { String: 'ﬁ' }, content: '' },
  ]) {
    it(`maps offsets through ${JSON.stringify(config)}`, () => {
      const normalizer = libraryNormalizer(config);
      checkFile(byteLevelFile(config), (slice) => normalizer.normalize(slice));
    });
  }

  it('maps offsets through Strip, giving stripped whitespace to the neighbouring token', () => {
    const config = { type: 'Strip', strip_left: true, strip_right: true };
    checkFile(byteLevelFile(config), (slice, first, last) => {
      const left = first ? slice.trimStart() : slice;
      return last ? left.trimEnd() : left;
    });
    const tokenizer = createHfTokenizer(byteLevelFile(config));
    expect(tokenizer.encode('  in  ').offsets).toEqual([[0, 6]]);
  });

  it('maps offsets through a ByteLevel pre-tokenizer that adds a prefix space, and a dummy-prefix normalizer', () => {
    checkFile(byteLevelFile(null, true), (slice) => slice);
    const tokenizer = createHfTokenizer(byteLevelFile(null, true));
    expect(tokenizer.encode('the').offsets).toEqual([[0, 3]]); // "Ġthe": the inserted space has no character
    const prepended = createHfTokenizer(byteLevelFile({ type: 'Prepend', prepend: ' ' }));
    expect(prepended.encode('the').offsets).toEqual([[0, 3]]);
    expect(prepended.encode('').offsets).toEqual([]);
  });

  it('aligns chunk by chunk, merging chunks where context decides (final sigma)', () => {
    const text = 'ΟΔΟΣ ΣΑΣ';
    const aligned = normalizeChunked(identityAligned(text, 0, text.length), (value) => value.toLowerCase());
    expect(aligned.text).toBe('οδος σας');
    // The final sigmas map with their neighbours; the middle sigma stays on its own character.
    expect([...aligned.starts]).toEqual([0, 1, 2, 2, 2, 5, 6, 6]);
    expect([...aligned.ends]).toEqual([1, 2, 5, 5, 5, 6, 8, 8]);
    const composed = normalizeChunked(identityAligned('xe\u0301y', 0, 4), (value) => value.normalize('NFC'));
    expect(composed.text).toBe('xéy');
    expect([...composed.starts, ...composed.ends]).toEqual([0, 1, 3, 1, 3, 4]);
  });
});
