import { readFileSync } from 'node:fs';
import { Tokenizer } from '@huggingface/tokenizers';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ModelLoadError } from '@reward-lens/spec';
import { llama2cTokenizerConfig, llama2cTokenizerToHfJson } from './llama2c-tokenizer-json.js';
import { parseLlama2cTokenizer, type Llama2cTokenizer } from './llama2c-tokenizer.js';
import { sharedDataPath } from '@reward-lens/test-data';

const tokenizerPath = sharedDataPath('stories260k/tok512.bin');
const tokenizerBytes = new Uint8Array(readFileSync(tokenizerPath));
const parsed = parseLlama2cTokenizer(tokenizerBytes, 512, 'tok512.bin');
const hfTokenizer = new Tokenizer(llama2cTokenizerToHfJson(parsed), llama2cTokenizerConfig(512));

/** A straight port of run.c's `encode()` over bytes (strings of char codes 0-255, as C's char*). */
function createReferenceEncoder(tokenizer: Llama2cTokenizer) {
  const asBinary = (bytes: Uint8Array) => String.fromCharCode(...bytes);
  const vocab = tokenizer.pieces.map((piece) => asBinary(piece.bytes));
  const scores = tokenizer.pieces.map((piece) => piece.score);
  const lookup = new Map(vocab.map((text, id) => [text, id]));
  return (text: string, bos: boolean): number[] => {
    const bytes = new TextEncoder().encode(text);
    const tokens: number[] = [];
    if (bos) tokens.push(1);
    if (bytes.length > 0) tokens.push(lookup.get(' ')!);
    let buffer: number[] = [];
    for (let index = 0; index < bytes.length; index++) {
      const byte = bytes[index]!;
      if ((byte & 0xc0) !== 0x80) buffer = [];
      buffer.push(byte);
      const next = bytes[index + 1];
      if (next !== undefined && (next & 0xc0) === 0x80 && buffer.length < 4) continue;
      const id = lookup.get(String.fromCharCode(...buffer));
      if (id !== undefined) tokens.push(id);
      else for (const raw of buffer) tokens.push(raw + 3);
      buffer = [];
    }
    for (;;) {
      let bestScore = -1e10;
      let bestId = -1;
      let bestIndex = -1;
      for (let index = 0; index < tokens.length - 1; index++) {
        const id = lookup.get(vocab[tokens[index]!]! + vocab[tokens[index + 1]!]!);
        if (id !== undefined && scores[id]! > bestScore) {
          bestScore = scores[id]!;
          bestId = id;
          bestIndex = index;
        }
      }
      if (bestIndex === -1) break;
      tokens.splice(bestIndex, 2, bestId);
    }
    return tokens;
  };
}

/** run.c's `decode()` applied token by token after BOS: strip the space after BOS, `<0xNN>` is a raw byte. */
function referenceDecode(tokenizer: Llama2cTokenizer, ids: number[]): string {
  const bytes: number[] = [];
  for (let index = 1; index < ids.length; index++) {
    let piece = tokenizer.pieces[ids[index]!]!.bytes;
    if (ids[index - 1] === 1 && piece[0] === 0x20) piece = piece.subarray(1);
    const byteToken = /^<0x([0-9A-F]{2})>$/.exec(new TextDecoder().decode(piece));
    if (byteToken) bytes.push(Number.parseInt(byteToken[1]!, 16));
    else bytes.push(...piece);
  }
  return new TextDecoder().decode(new Uint8Array(bytes));
}

const referenceEncode = createReferenceEncoder(parsed);
const loneSurrogate = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

const words = [
  'Once',
  'upon',
  'a',
  'time',
  'there',
  'was',
  'little',
  'girl',
  'named',
  'Lily',
  'She',
  'loved',
  'to',
  'play',
  'the',
  'park',
  'happy',
  'Tom',
  'said',
  "didn't",
  'ball',
  'sky',
  'Bob',
  'And',
  'they',
];
const fragment = fc.oneof(
  { weight: 5, arbitrary: fc.constantFrom(...words) },
  { weight: 3, arbitrary: fc.constantFrom(' ', '  ', '\n', '.', ',', '!', '?', '"', "'", ' - ', '\t', '\u00a0') },
  { weight: 2, arbitrary: fc.string({ unit: 'grapheme-ascii', maxLength: 4 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 3 }) },
  { weight: 1, arbitrary: fc.constantFrom('é', 'ñ', '“', '”', '’', '…', '—', '€', '™', 'â', '漢字', '😀', 'naïve café') },
);
// The documented differences (see llama2cTokenizerToHfJson) are kept out of the random texts.
const text = fc
  .array(fragment, { maxLength: 16 })
  .map((parts) => parts.join(''))
  .filter((value) => !value.includes('\u2581') && !/<unk>|<s>|<\/s>/.test(value));

describe('llama2.c tokenizer', () => {
  it('reads tok512.bin', () => {
    expect(parsed.maxTokenLength).toBe(7);
    expect(parsed.pieces).toHaveLength(512);
    expect(parsed.pieces[1]!.text).toBe('\n<s>\n');
    expect(parsed.pieces[3 + 0x41]!.text).toBe('<0x41>');
    expect(parsed.pieces[265]).toMatchObject({ text: ' the', score: -6 });
  });

  it('encodes a story sentence as run.c does', () => {
    const sentence = 'Once upon a time, there was a little girl named Lily.';
    const expected = referenceEncode(sentence, true);
    expect(expected[0]).toBe(1);
    expect(hfTokenizer.encode(sentence, { add_special_tokens: true }).ids).toEqual(expected);
    expect(hfTokenizer.encode(sentence, { add_special_tokens: false }).ids).toEqual(referenceEncode(sentence, false));
  });

  it('encodes the empty text as BOS alone, with no dummy prefix', () => {
    expect(hfTokenizer.encode('', { add_special_tokens: true }).ids).toEqual([1]);
    expect(referenceEncode('', true)).toEqual([1]);
  });

  it('falls back to byte tokens (id = byte + 3) for characters that are no piece', () => {
    const ids = hfTokenizer.encode('漢', { add_special_tokens: false }).ids;
    expect(ids).toEqual(referenceEncode('漢', false));
    expect(ids.slice(-3)).toEqual([...new TextEncoder().encode('漢')].map((byte) => byte + 3));
  });

  it('matches run.c on random texts, encoding and decoding', () => {
    fc.assert(
      fc.property(text, (value) => {
        const expected = referenceEncode(value, true);
        const actual = hfTokenizer.encode(value, { add_special_tokens: true }).ids;
        expect(actual).toEqual(expected);
        if (expected.length > 1) {
          expect(hfTokenizer.decode(actual, { skip_special_tokens: true })).toBe(referenceDecode(parsed, expected));
          // TextEncoder spells a lone surrogate as U+FFFD; everything else round-trips.
          expect(referenceDecode(parsed, expected)).toBe(value.replace(loneSurrogate, '\ufffd'));
        }
      }),
      { numRuns: 400, seed: 260 },
    );
  });

  it('differs from run.c on a literal U+2581, which Hugging Face reads as a space', () => {
    const value = 'a\u2581b';
    const spaceBytes = [0xe2, 0x96, 0x81].map((byte) => byte + 3);
    expect(referenceEncode(value, false).join(' ')).toContain(spaceBytes.join(' '));
    expect(hfTokenizer.encode(value, { add_special_tokens: false }).ids).toEqual(hfTokenizer.encode('a b', { add_special_tokens: false }).ids);
    expect(hfTokenizer.encode('a b', { add_special_tokens: false }).ids).toEqual(referenceEncode('a b', false));
  });

  it('differs from run.c on literal special-token strings and on decoding without BOS', () => {
    expect(hfTokenizer.encode('a<s>', { add_special_tokens: false }).ids.at(-1)).toBe(1);
    expect(referenceEncode('a<s>', false)).not.toContain(1);
    const ids = referenceEncode('Lily', false);
    expect(hfTokenizer.decode(ids)).toBe('Lily');
    expect(referenceDecode(parsed, [0, ...ids])).toBe(' Lily');
  });

  it('differs from run.c when overlapping pairs make two different pieces of equal score', () => {
    const byteTexts = Array.from({ length: 256 }, (_, byte) => `<0x${byte.toString(16).toUpperCase().padStart(2, '0')}>`);
    const entries: Array<[string, number]> = [
      ['<unk>', 0],
      ['\n<s>\n', 0],
      ['\n</s>\n', 0],
      ...byteTexts.map((byteText): [string, number] => [byteText, 0]),
      [' ', -1],
      ['o', -2],
      ['x', -3],
      ['xo', -4],
      ['ox', -4],
    ];
    const tokenizer: Llama2cTokenizer = {
      maxTokenLength: 6,
      pieces: entries.map(([pieceText, score]) => ({ text: pieceText, bytes: new TextEncoder().encode(pieceText), score })),
    };
    const synthetic = new Tokenizer(llama2cTokenizerToHfJson(tokenizer), llama2cTokenizerConfig(16));
    const [space, o, xo, ox] = [259, 260, 262, 263];
    // run.c takes the leftmost of the equal-scoring pairs; the BPE model takes the lower merge rank.
    expect(createReferenceEncoder(tokenizer)('oxo', false)).toEqual([space, ox, o]);
    expect(synthetic.encode('oxo', { add_special_tokens: false }).ids).toEqual([space, o, xo]);
  });

  it('rejects a truncated file, a wrong vocab size and a vocabulary without byte tokens, naming the file', () => {
    expect(() => parseLlama2cTokenizer(tokenizerBytes.subarray(0, 3000), 512, 'tok512.bin')).toThrow(/tok512\.bin: .*ends after/);
    expect(() => parseLlama2cTokenizer(tokenizerBytes, 500, 'tok512.bin')).toThrow(/tok512\.bin: .*bytes are left/);
    expect(() => parseLlama2cTokenizer(tokenizerBytes, 600, 'tok512.bin')).toThrow(ModelLoadError);
    const withoutBytes = { ...parsed, pieces: parsed.pieces.map((piece, id) => (id === 70 ? { ...piece, text: 'x' } : piece)) };
    expect(() => llama2cTokenizerToHfJson(withoutBytes, 'tok512.bin')).toThrow(/tok512\.bin: .*piece 70 is "x", run.c expects <0x43>/);
  });
});
