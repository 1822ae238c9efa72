import { readFileSync } from 'node:fs';
import { Tokenizer } from '@huggingface/tokenizers';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { specialAddedToken } from './bpe-tokenizer-json.js';
import { llama2cTokenizerConfig, llama2cTokenizerToHfJson, metaspace, sentencePieceDecoder, sentencePieceLegacyNormalizer } from './llama2c-tokenizer-json.js';
import { parseLlama2cTokenizer } from './llama2c-tokenizer.js';
import { sharedDataPath } from '@reward-lens/test-data';
import { offsetsProblem } from './hf-offsets-gaps.js';
import { createHfTokenizer } from './hf-tokenizer.js';
import { mixedText, type Json } from '@reward-lens/test-data/tokenizer-checks';
import type { Encoding } from './tokenizer.js';

const byteTokens = Array.from({ length: 256 }, (_, byte) => `<0x${byte.toString(16).toUpperCase().padStart(2, '0')}>`);
const pieces = [
  metaspace,
  'e',
  'h',
  'l',
  'o',
  'w',
  'r',
  'd',
  't',
  's',
  'x',
  '1',
  '2',
  '+',
  '=',
  '.',
  'к',
  'и',
  'é',
  '你',
  '<',
  `${metaspace}h`,
  'he',
  'll',
  `${metaspace}he`,
  'llo',
  `${metaspace}hello`,
  `${metaspace}w`,
  'or',
  `${metaspace}wor`,
  'ld',
  `${metaspace}world`,
  'ки',
  `${metaspace}ки`,
  `${metaspace}x`,
  `${metaspace}1`,
  '+2',
  `${metaspace}+`,
  `${metaspace}${metaspace}`,
];

/** Every split of a piece into two pieces is a merge, ranked by the piece's place in the list. */
function mergesOf(vocabulary: Map<string, number>): [string, string][] {
  const merges: [string, string][] = [];
  for (const piece of pieces) {
    const characters = Array.from(piece);
    for (let split = 1; split < characters.length; split += 1) {
      const left = characters.slice(0, split).join('');
      const right = characters.slice(split).join('');
      if (vocabulary.has(left) && vocabulary.has(right)) merges.push([left, right]);
    }
  }
  return merges;
}

const specials = ['<unk>', '<s>', '</s>'].map(specialAddedToken);

/** A small SentencePiece-style BPE file: `<unk>` `<s>` `</s>`, 256 byte-fallback tokens, then the pieces. */
function sentencePieceBpe(style: 'legacy' | 'metaspace'): Json {
  const vocabulary = new Map([...['<unk>', '<s>', '</s>'], ...byteTokens, ...pieces].map((token, id) => [token, id]));
  return {
    version: '1.0',
    added_tokens: specials,
    // Llama-2's legacy form spells spaces in the normalizer; the newer form in a Metaspace pre-tokenizer.
    normalizer: style === 'legacy' ? sentencePieceLegacyNormalizer() : null,
    pre_tokenizer: style === 'metaspace' ? { type: 'Metaspace', replacement: metaspace, prepend_scheme: 'first', split: false } : null,
    post_processor: null,
    decoder: sentencePieceDecoder(),
    model: { type: 'BPE', unk_token: '<unk>', fuse_unk: true, byte_fallback: true, vocab: Object.fromEntries(vocabulary), merges: mergesOf(vocabulary) },
  };
}

/** A Unigram file without byte fallback: unknown characters become `<unk>` runs. */
function sentencePieceUnigram(): Json {
  const scored = pieces.map((piece): [string, number] => [piece, Array.from(piece).length === 1 ? -5 : -2]);
  return {
    version: '1.0',
    added_tokens: specials,
    normalizer: null,
    pre_tokenizer: { type: 'Metaspace', replacement: metaspace, prepend_scheme: 'always', split: true },
    post_processor: null,
    decoder: { type: 'Metaspace', replacement: metaspace, prepend_scheme: 'always', split: true },
    model: { type: 'Unigram', unk_id: 0, vocab: [['<unk>', 0], ['<s>', 0], ['</s>', 0], ...scored] },
  };
}

const encoder = new TextEncoder();

/** A token's bytes as SentencePiece means them: `<0xNN>` is a byte, `▁` a space. */
function spaceBytes(token: string): number[] {
  const byte = /^<0x([0-9A-F]{2})>$/.exec(token);
  return byte ? [Number.parseInt(byte[1]!, 16)] : [...encoder.encode(token.replaceAll(metaspace, ' '))];
}

/**
 * The offsets contract with SentencePiece's dummy prefix: spans cover the text without gaps; each
 * group of tokens sharing a character spells its slice (a literal `▁` in the text reads as a space),
 * except that a group starting a stretch of text between special tokens may carry the dummy `▁`
 * in front, and a group holding only the dummy prefix is empty and zero-width.
 */
function expectSentencePieceOffsets(text: string, encoding: Encoding, tokens: string[], specialSpans: Set<string>): void {
  const { ids, offsets } = encoding;
  expect(offsets).toHaveLength(ids.length);
  expect(offsetsProblem(offsets, text.length)).toBeNull();
  if (text.length > 0) expect(offsets.at(-1)![1]).toBe(text.length);
  const stretchStarts = new Set([0, ...offsets.filter((span) => specialSpans.has(text.slice(...span))).map((span) => span[1])]);
  let groupStart = 0;
  for (let index = 1; index <= ids.length; index += 1) {
    if (index < ids.length && offsets[index]![0] < offsets[index - 1]![1]) continue;
    const start = offsets[groupStart]![0];
    const end = offsets[index - 1]![1];
    const spelled = tokens.slice(groupStart, index).flatMap((token) => (specialSpans.has(token) ? [...encoder.encode(token)] : spaceBytes(token)));
    const slice = [...encoder.encode(text.slice(start, end).replaceAll(metaspace, ' '))];
    const withDummy = [0x20, ...slice];
    if (start === end) expect(spelled).toEqual([0x20]);
    else if (stretchStarts.has(start) && spelled.length === withDummy.length) expect(spelled).toEqual(withDummy);
    else expect(spelled).toEqual(slice);
    groupStart = index;
  }
}

const sentencePieceText = fc
  .array(
    fc.oneof(
      {
        weight: 3,
        arbitrary: fc.constantFrom('hello', ' world', ' ', '  ', 'ки', ' ки', '<s>', '</s>', metaspace, 'é', 'e\u0301', '你', '+2', ' x', '<unk>', '<0x41>'),
      },
      { weight: 2, arbitrary: mixedText },
    ),
    { maxLength: 8 },
  )
  .map((parts) => parts.join(''));

function checkAgainstLibrary(file: Json, config: Json, numRuns: number): void {
  const tokenizer = createHfTokenizer(file, config);
  const reference = new Tokenizer(file, config);
  const specialSpans = new Set(['<unk>', '<s>', '</s>']);
  fc.assert(
    fc.property(sentencePieceText, (text) => {
      const encoding = tokenizer.encode(text);
      const expected = text.length === 0 ? { ids: [], tokens: [] } : reference.encode(text, { add_special_tokens: false });
      expect(encoding.ids).toEqual(expected.ids);
      expectSentencePieceOffsets(text, encoding, expected.tokens, specialSpans);
    }),
    { numRuns },
  );
}

describe('hf tokenizer: SentencePiece-style files', () => {
  it('legacy BPE (Prepend + Replace normalizer, byte fallback): library ids, exact offsets', () => {
    checkAgainstLibrary(sentencePieceBpe('legacy'), { bos_token: '<s>', eos_token: '</s>' }, 300);
  });

  it('Metaspace pre-tokenizer BPE (prepend_scheme first): library ids, exact offsets', () => {
    checkAgainstLibrary(sentencePieceBpe('metaspace'), { bos_token: '<s>', eos_token: '</s>' }, 300);
  });

  it('Unigram with unknown-character runs: library ids, exact offsets', () => {
    checkAgainstLibrary(sentencePieceUnigram(), {}, 200);
  });

  it('gives the dummy prefix no character, and byte-fallback tokens their whole character', () => {
    const tokenizer = createHfTokenizer(sentencePieceBpe('legacy'), { bos_token: '<s>', eos_token: '</s>' });
    const hello = tokenizer.encode('hello world');
    expect(hello.ids).toEqual([pieces.indexOf(`${metaspace}hello`) + 259, pieces.indexOf(`${metaspace}world`) + 259]);
    expect(hello.offsets).toEqual([
      [0, 5],
      [5, 11],
    ]);
    const leadingSpace = tokenizer.encode(' x');
    expect(leadingSpace.ids).toEqual([pieces.indexOf(metaspace) + 259, pieces.indexOf(`${metaspace}x`) + 259]);
    expect(leadingSpace.offsets).toEqual([
      [0, 0],
      [0, 2],
    ]); // the dummy ▁ alone, then "▁x" = the text's " x"
    const emoji = tokenizer.encode('😀');
    expect(emoji.ids).toEqual([259 + pieces.indexOf(metaspace), 3 + 0xf0, 3 + 0x9f, 3 + 0x98, 3 + 0x80]);
    expect(emoji.offsets).toEqual([
      [0, 0],
      [0, 2],
      [0, 2],
      [0, 2],
      [0, 2],
    ]);
    const special = tokenizer.encode('x<s>x');
    expect(special.ids).toEqual([pieces.indexOf(`${metaspace}x`) + 259, 1, pieces.indexOf(`${metaspace}x`) + 259]);
    expect(special.offsets).toEqual([
      [0, 1],
      [1, 4],
      [4, 5],
    ]);
    expect(tokenizer.tokenToId(' x')).toBe(pieces.indexOf(`${metaspace}x`) + 259);
    expect(tokenizer.tokenToId('\n')).toBe(3 + 0x0a);
    expect([tokenizer.bosTokenId, tokenizer.eosTokenId, tokenizer.padTokenId]).toEqual([1, 2, 2]);
  });

  it('the llama2.c stories260K tokenizer, converted to tokenizer.json: library ids, exact offsets', () => {
    const parsed = parseLlama2cTokenizer(new Uint8Array(readFileSync(sharedDataPath('stories260k/tok512.bin'))), 512, 'tok512.bin');
    checkAgainstLibrary(llama2cTokenizerToHfJson(parsed), llama2cTokenizerConfig(512), 200);
  });
});
