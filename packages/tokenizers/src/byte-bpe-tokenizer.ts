import { InvalidInputError } from '@reward-lens/spec';
import { bosTokenId, buildByteBpeVocabulary, bytesKey, eosTokenId, padTokenId, specialTokens, type ByteBpeVocabulary } from './byte-bpe-vocabulary.js';
import { DEFAULT_MERGES } from './default-merges.js';
import { mergeBytePairs } from './merge-byte-pairs.js';
import { createAddedTokenSplitter, type TextChunk } from './split-on-added-tokens.js';
import type { CharSpan, Encoding, PrmTokenizer } from './tokenizer.js';
import { decodeUtf8, encodeUtf8, encodeUtf8WithSpans } from './utf8-bytes.js';

export interface ByteBpeTokenizerOptions {
  /**
   * Strings matched literally in the text before BPE (longest first), each one token: step tags
   * such as `<extra_0>` or `" ки"`. Their ids follow the merges, in this order.
   */
  addedTokens?: readonly string[];
}

let defaultVocabulary: ByteBpeVocabulary | undefined;

function getDefaultVocabulary(): ByteBpeVocabulary {
  defaultVocabulary ??= buildByteBpeVocabulary(DEFAULT_MERGES);
  return defaultVocabulary;
}

function validateAddedTokens(addedTokens: readonly string[]): void {
  const seen = new Set<string>();
  addedTokens.forEach((token, index) => {
    const location = `addedTokens[${index}]`;
    if (typeof token !== 'string' || token.length === 0) {
      throw new InvalidInputError('an added token must be a non-empty string', { location });
    }
    if ((specialTokens as readonly string[]).includes(token)) {
      throw new InvalidInputError(`${JSON.stringify(token)} is already a special token`, { location });
    }
    if (seen.has(token)) {
      throw new InvalidInputError(`${JSON.stringify(token)} is listed twice`, { location });
    }
    seen.add(token);
  });
}

/**
 * A small, deterministic byte-level BPE tokenizer: `<pad>`=0, `<s>`=1, `</s>`=2, the 256 bytes
 * (id = 3 + byte), then 253 hand-written merges, 512 ids in all, plus any added tokens.
 *
 * No pre-tokenization: BPE runs over each stretch of text between added tokens as a whole, so merges
 * cross word and step boundaries (`".\n"` is one token), as they do in real byte-level tokenizers.
 */
export class ByteBpeTokenizer implements PrmTokenizer {
  readonly name = 'reward-lens-byte-bpe';
  readonly vocabSize: number;
  readonly bosTokenId = bosTokenId;
  readonly eosTokenId = eosTokenId;
  readonly padTokenId = padTokenId;
  readonly addedTokens: readonly string[];
  /** Its added tokens (step tags): the only spellings it encodes as one token. */
  readonly controlTokens: readonly string[];

  private readonly vocabulary: ByteBpeVocabulary;
  private readonly addedTokenBytes: readonly Uint8Array[];
  private readonly splitOnAddedTokens: (text: string) => TextChunk[];

  constructor(options: ByteBpeTokenizerOptions = {}) {
    const addedTokens = [...(options.addedTokens ?? [])];
    validateAddedTokens(addedTokens);
    this.vocabulary = getDefaultVocabulary();
    this.addedTokens = addedTokens;
    this.controlTokens = addedTokens;
    this.addedTokenBytes = addedTokens.map((token) => encodeUtf8(token));
    this.vocabSize = this.vocabulary.size + addedTokens.length;
    this.splitOnAddedTokens = createAddedTokenSplitter(addedTokens);
  }

  encode(text: string): Encoding {
    const ids: number[] = [];
    const offsets: CharSpan[] = [];
    for (const chunk of this.splitOnAddedTokens(text)) {
      if (chunk.addedTokenIndex >= 0) {
        ids.push(this.vocabulary.size + chunk.addedTokenIndex);
        offsets.push([chunk.start, chunk.end]);
        continue;
      }
      const { bytes, charStart, charEnd } = encodeUtf8WithSpans(text, chunk.start, chunk.end);
      const merged = mergeBytePairs(bytes, this.vocabulary);
      merged.ids.forEach((id, index) => {
        const firstByte = merged.byteStarts[index]!;
        const lastByte = (merged.byteStarts[index + 1] ?? bytes.length) - 1;
        // A token holding part of a character gets the whole character's span (the Encoding contract).
        ids.push(id);
        offsets.push([charStart[firstByte]!, charEnd[lastByte]!]);
      });
    }
    return { ids, offsets };
  }

  decode(ids: readonly number[]): string {
    const pieces: Uint8Array[] = [];
    let length = 0;
    ids.forEach((id, index) => {
      const piece = this.bytesOf(id, index);
      pieces.push(piece);
      length += piece.length;
    });
    // Decode the bytes together: a character split across tokens is only whole in the concatenation.
    const bytes = new Uint8Array(length);
    let cursor = 0;
    for (const piece of pieces) {
      bytes.set(piece, cursor);
      cursor += piece.length;
    }
    return decodeUtf8(bytes);
  }

  tokenToId(token: string): number | undefined {
    const specialId = (specialTokens as readonly string[]).indexOf(token);
    if (specialId >= 0) return specialId;
    const addedIndex = this.addedTokens.indexOf(token);
    if (addedIndex >= 0) return this.vocabulary.size + addedIndex;
    if (token.length === 0) return undefined;
    return this.vocabulary.idByBytesKey.get(bytesKey(encodeUtf8(token)));
  }

  private bytesOf(id: number, index: number): Uint8Array {
    if (!Number.isInteger(id) || id < 0 || id >= this.vocabSize) {
      throw new InvalidInputError(`token id ${id} is not in the vocabulary (0..${this.vocabSize - 1})`, {
        location: `ids[${index}]`,
      });
    }
    return id < this.vocabulary.size ? this.vocabulary.tokenBytes[id]! : this.addedTokenBytes[id - this.vocabulary.size]!;
  }
}

/**
 * The default tokenizer of the seeded tiny model.
 *
 * @example
 * const tokenizer = createByteBpeTokenizer({ addedTokens: ['<extra_0>'] });
 * tokenizer.encode('x = 4.\nThen<extra_0>'); // ".\n" is one token, "<extra_0>" is id 512
 */
export function createByteBpeTokenizer(options: ByteBpeTokenizerOptions = {}): ByteBpeTokenizer {
  return new ByteBpeTokenizer(options);
}
