import type { CharSpan, Encoding, PrmTokenizer } from '@reward-lens/core';
import { organismTokenPattern, organismVocabulary } from './vocabulary.js';

export const organismSpecialTokens = { pad: '<pad>', bos: '<bos>', eos: '<eos>', unknown: '<unk>' } as const;

/** A `PrmTokenizer` that also names its tokens. */
export interface OrganismTokenizer extends PrmTokenizer {
  /** The token strings, by id. */
  readonly tokens: readonly string[];
  /** The text's tokens as strings (unknown words as themselves). */
  tokenize(text: string): string[];
}

/**
 * A word-level tokenizer over the organism's closed vocabulary, with digits as single tokens:
 * ids 0–3 are `<pad>`, `<bos>`, `<eos>`, `<unk>`, then `organismVocabulary().tokens`. Spaces
 * are not tokens: a token's character span starts where the previous one ended, so the spans
 * cover the text with no gap. `decode` puts single spaces back (none before `.`, `?` or a
 * newline, after a newline, or between the digits of a number), which restores the organism's
 * own text exactly.
 *
 * @example
 * const tokenizer = createOrganismTokenizer();
 * tokenizer.tokenize('3 × 12 = 36 pencils.'); // ['3', '×', '1', '2', '=', '3', '6', 'pencils', '.']
 */
export function createOrganismTokenizer(): OrganismTokenizer {
  const tokens = [
    organismSpecialTokens.pad,
    organismSpecialTokens.bos,
    organismSpecialTokens.eos,
    organismSpecialTokens.unknown,
    ...organismVocabulary().tokens,
  ];
  const ids = new Map(tokens.map((token, id) => [token, id]));
  const unknownId = ids.get(organismSpecialTokens.unknown)!;
  const tokenize = (text: string) => [...text.matchAll(organismTokenPattern)].map((match) => match[0]);
  return {
    name: 'reward-lens-organism',
    vocabSize: tokens.length,
    bosTokenId: ids.get(organismSpecialTokens.bos)!,
    eosTokenId: ids.get(organismSpecialTokens.eos)!,
    padTokenId: ids.get(organismSpecialTokens.pad)!,
    tokens,
    tokenize,
    encode(text: string): Encoding {
      const encoded: Encoding = { ids: [], offsets: [] };
      let end = 0;
      for (const match of text.matchAll(organismTokenPattern)) {
        const tokenEnd = match.index + match[0].length;
        encoded.ids.push(ids.get(match[0]) ?? unknownId);
        encoded.offsets.push([end, tokenEnd] as CharSpan);
        end = tokenEnd;
      }
      // Trailing spaces belong to the last token.
      if (encoded.offsets.length > 0 && end < text.length) encoded.offsets[encoded.offsets.length - 1] = [encoded.offsets.at(-1)![0], text.length];
      return encoded;
    },
    decode(sequence: readonly number[]): string {
      let text = '';
      let previous = '';
      for (const id of sequence) {
        const token = tokens[id] ?? organismSpecialTokens.unknown;
        if (token === organismSpecialTokens.pad || token === organismSpecialTokens.bos || token === organismSpecialTokens.eos) continue;
        const joined =
          previous === '' || previous === '\n' || token === '\n' || token === '.' || token === '?' || (/^\d$/.test(previous) && /^\d$/.test(token));
        text += joined ? token : ` ${token}`;
        previous = token;
      }
      return text;
    },
    tokenToId: (token: string) => ids.get(token),
  };
}
