import { Tokenizer } from '@huggingface/tokenizers';
import { describe, expect, it } from 'vitest';
import { InvalidInputError } from '@reward-lens/spec';
import { HfOffsetAligner } from './hf-offsets.js';
import { spellBytesByteLevel } from './hf-offsets-byte-level.js';
import { compilePreTokenizer } from './hf-offsets-pre-tokenizer.js';
import { createHfTokenizer } from './hf-tokenizer.js';
import type { Json } from '@reward-lens/test-data/tokenizer-checks';

const encoder = new TextEncoder();

/** A tiny byte-level BPE file: the 256 bytes, one merge, and the given added tokens. */
function tinyFile(overrides: Json = {}, addedTokens: Json[] = []): Json {
  const vocab: Record<string, number> = {};
  for (let byte = 0; byte < 256; byte += 1) vocab[spellBytesByteLevel(Uint8Array.of(byte))] = byte;
  vocab.he = 256;
  return {
    added_tokens: addedTokens,
    normalizer: null,
    pre_tokenizer: { type: 'ByteLevel', add_prefix_space: false, use_regex: true },
    post_processor: null,
    decoder: { type: 'ByteLevel' },
    model: { type: 'BPE', vocab, merges: [['h', 'e']] },
    ...overrides,
  };
}

const special = (content: string, id: number, extra: Json = {}): Json => ({
  id,
  content,
  lstrip: false,
  rstrip: false,
  normalized: false,
  special: true,
  ...extra,
});

function expectInvalid(action: () => unknown, message: RegExp): void {
  let thrown: unknown;
  try {
    action();
  } catch (error) {
    thrown = error;
  }
  expect(InvalidInputError.isInstance(thrown)).toBe(true);
  expect((thrown as Error).message).toMatch(message);
}

describe('hf tokenizer: added tokens', () => {
  // Each: the ids the reference tokenizer gives, the ids spelled out, and each token's character span.
  it.each([
    [
      'gives an added token that strips whitespace the whitespace it strips',
      {
        file: tinyFile({}, [special('<tag>', 300, { lstrip: true, rstrip: true })]),
        text: 'a  <tag>  b',
        expectedIds: [0x61, 300, 0x62],
        expectedOffsets: [
          [0, 1],
          [1, 10],
          [10, 11],
        ],
      },
    ],
    [
      'matches a normalized added token in the normalized text',
      {
        file: tinyFile({ normalizer: { type: 'Lowercase' } }, [{ id: 300, content: '<tag>', special: false, normalized: true }]),
        text: 'x<TAG>HE',
        expectedIds: [0x78, 300, 256],
        expectedOffsets: [
          [0, 1],
          [1, 6],
          [6, 8],
        ],
      },
    ],
  ] as const)('%s', (_title, { file, text, expectedIds, expectedOffsets }) => {
    const tokenizer = createHfTokenizer(file);
    const { ids, offsets } = tokenizer.encode(text);
    expect(ids).toEqual(new Tokenizer(file, {}).encode(text, { add_special_tokens: false }).ids);
    expect(ids).toEqual(expectedIds);
    expect(offsets).toEqual(expectedOffsets);
  });

  it('adds tokens from options, replacing an added token that held the id', () => {
    const file = tinyFile({}, [special('<|quad_end|>', 300)]);
    const tokenizer = createHfTokenizer(file, undefined, {
      addedTokens: [
        { content: '<extra_0>', id: 300 },
        { content: ' ки', id: 400 },
      ],
    });
    expect(tokenizer.vocabSize).toBe(401);
    expect(tokenizer.tokenToId('<extra_0>')).toBe(300);
    expect(tokenizer.tokenToId('<|quad_end|>')).toBeUndefined();
    const text = 'he<extra_0> ки';
    expect(tokenizer.encode(text)).toEqual({
      ids: [256, 300, 400],
      offsets: [
        [0, 2],
        [2, 11],
        [11, 14],
      ],
    });
    expect(tokenizer.decode([256, 300, 400])).toBe(text);
    expect(file.added_tokens).toEqual([special('<|quad_end|>', 300)]); // the caller's object is left alone
  });

  it('refuses added tokens that clash with the vocabulary or each other', () => {
    const file = tinyFile({}, [special('<s>', 300)]);
    expectInvalid(() => createHfTokenizer(file, undefined, { addedTokens: [{ content: '<s>', id: 301 }] }), /already added token 300/);
    expectInvalid(() => createHfTokenizer(file, undefined, { addedTokens: [{ content: '<x>', id: 65 }] }), /id 65 is already a token/);
    expectInvalid(() => createHfTokenizer(file, undefined, { addedTokens: [{ content: 'he', id: 5 }] }), /already token 256/);
    expectInvalid(() => createHfTokenizer(file, undefined, { addedTokens: [{ content: '<x>', id: -1 }] }), /not a non-negative integer/);
    expectInvalid(() => createHfTokenizer(file, undefined, { addedTokens: [{ content: '', id: 500 }] }), /non-empty/);
  });
});

describe('hf tokenizer: special tokens and vocabulary', () => {
  const file = tinyFile({}, [special('<s>', 300), special('</s>', 301), special('<pad>', 302)]);

  it('reads bos/eos/pad from the config, as strings or { content } objects', () => {
    const tokenizer = createHfTokenizer(file, { bos_token: { content: '</s>' }, eos_token: '<s>', pad_token: '<pad>' });
    expect([tokenizer.bosTokenId, tokenizer.eosTokenId, tokenizer.padTokenId]).toEqual([301, 300, 302]);
    const none = createHfTokenizer(file, { bos_token: null, eos_token: null });
    expect([none.bosTokenId, none.eosTokenId, none.padTokenId]).toEqual([null, null, 0]);
  });

  it('falls back to the usual spellings without a config, and PAD to EOS', () => {
    const tokenizer = createHfTokenizer(JSON.stringify(file));
    expect([tokenizer.bosTokenId, tokenizer.eosTokenId, tokenizer.padTokenId]).toEqual([300, 301, 301]);
    expect(tokenizer.name).toBe('hf:BPE');
    expect(createHfTokenizer(file, { tokenizer_class: 'LlamaTokenizer' }).name).toBe('hf:LlamaTokenizer');
    expect(createHfTokenizer(file, undefined, { name: 'mine' }).name).toBe('mine');
  });

  it('refuses a config that names a token the file lacks', () => {
    expectInvalid(() => createHfTokenizer(file, { eos_token: '<|eot|>' }), /tokenizer_config.json eos_token: names "<\|eot\|>"/);
    expectInvalid(() => createHfTokenizer(file, { bos_token: 7 }), /must be a token string/);
  });

  it('decodes ids, refusing ones outside the vocabulary', () => {
    const tokenizer = createHfTokenizer(file);
    expect(tokenizer.decode([])).toBe('');
    expect(tokenizer.decode([300, 256, 0x20, 0xe2, 0x82, 0xac])).toBe('<s>he €');
    expectInvalid(() => tokenizer.decode([303]), /token id 303 is not in the vocabulary/);
    expectInvalid(() => tokenizer.decode([1.5]), /ids\[0\]/);
    expect(tokenizer.tokenToId('he')).toBe(256);
    expect(tokenizer.tokenToId('€')).toBeUndefined(); // three tokens, not one
    expect(tokenizer.tokenToId('')).toBeUndefined();
  });

  it('encodes lone surrogates as the library does (U+FFFD bytes), spanning the lone unit', () => {
    const tokenizer = createHfTokenizer(file);
    const text = 'a\ud800b\udc00';
    const { ids, offsets } = tokenizer.encode(text);
    expect(ids).toEqual(new Tokenizer(file, {}).encode(text, { add_special_tokens: false }).ids);
    expect(offsets).toEqual([
      [0, 1],
      [1, 2],
      [1, 2],
      [1, 2],
      [2, 3],
      [3, 4],
      [3, 4],
      [3, 4],
    ]);
  });

  it('refuses text that is not a string', () => {
    expectInvalid(() => createHfTokenizer(file).encode(42 as unknown as string), /must be a string/);
  });
});

describe('hf tokenizer: files it cannot give exact offsets for', () => {
  it('names the unsupported model, normalizer or pre-tokenizer at creation', () => {
    expectInvalid(() => createHfTokenizer(tinyFile({ model: { type: 'WordPiece', vocab: {} } })), /tokenizer.json model: type "WordPiece" is not supported/);
    expectInvalid(
      () => createHfTokenizer(tinyFile({ normalizer: { type: 'Sequence', normalizers: [{ type: 'NFC' }, { type: 'BertNormalizer' }] } })),
      /normalizer.normalizers\[1\]: the "BertNormalizer" normalizer/,
    );
    expectInvalid(() => createHfTokenizer(tinyFile({ pre_tokenizer: { type: 'Whitespace' } })), /the "Whitespace" pre-tokenizer drops or rewrites text/);
    expectInvalid(
      () => createHfTokenizer(tinyFile({ pre_tokenizer: { type: 'Split', pattern: { String: ' ' }, behavior: 'Removed' } })),
      /"behavior": "Removed" drops text/,
    );
    expectInvalid(() => createHfTokenizer(tinyFile({ normalizer: { type: 'Replace', pattern: { String: 'a' }, content: '$&' } })), /without "\$"/);
    expectInvalid(() => createHfTokenizer(tinyFile(), { remove_space: true }), /remove_space/);
    expectInvalid(() => createHfTokenizer('{not json'), /tokenizer.json: is not valid JSON/);
    expectInvalid(() => createHfTokenizer({}), /tokenizer.json model: is missing/);
  });

  it('throws instead of returning offsets it cannot verify', () => {
    const plan = {
      name: 'broken',
      addedTokens: [],
      normalize: null,
      libraryNormalize: (text: string) => text.toLowerCase(),
      preTokenize: null,
      spelling: compilePreTokenizer({ type: 'ByteLevel' }),
      byteFallback: false,
      unkTokenId: undefined,
    };
    // The aligned normalizer (none) disagrees with the library's (lowercase).
    expectInvalid(() => new HfOffsetAligner(plan).offsets('Hi', ['hi'], [1]), /tokenizer "broken": its normalizer gives "hi"/);
    const aligner = new HfOffsetAligner({ ...plan, libraryNormalize: null });
    expectInvalid(() => aligner.offsets('Hi', ['H', 'x'], [1, 2]), /token 1 \("x"\) does not spell the text at "i"/);
    expectInvalid(() => aligner.offsets('Hi', ['H'], [1]), /text is left over/);
    expectInvalid(() => aligner.offsets('Hi', ['H', 'i', 'i'], [1, 2, 2]), /past the end of the text/);
    expect(aligner.offsets('Hé', ['H', spellBytesByteLevel(encoder.encode('é'))], [1, 2])).toEqual([
      [0, 1],
      [1, 2],
    ]);
  });
});
