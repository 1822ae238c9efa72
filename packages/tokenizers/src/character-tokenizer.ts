import { InvalidInputError } from '@reward-lens/spec';
import type { CharSpan, Encoding, PrmTokenizer } from './tokenizer.js';

/** Beyond every Unicode code point, so it cannot collide with a character's id. */
const stepTagId = 0x11_0000;

/**
 * The stand-in tokenizer of a remote engine that tokenizes on the server: one token per
 * character (code point), and the step tag as one token. It lets the SDK lay a pair out and find
 * every step's read position exactly in the text it sends; token positions and counts in the
 * results are then characters of that text, and the results' notes say so.
 */
export function createCharacterTokenizer(stepTag: string): PrmTokenizer {
  if (stepTag.length === 0) throw new InvalidInputError('the step tag must not be empty');
  return {
    name: `characters (step tag ${JSON.stringify(stepTag)})`,
    vocabSize: stepTagId + 1,
    bosTokenId: null,
    eosTokenId: null,
    padTokenId: 0,
    // The server's tokenizer reads the text with its special tokens: any spelling like theirs is refused.
    refusedSpellings: /<\|[^|<>\s]{1,64}\|>|<\/?s>|<pad>|<unk>|<extra_\d+>|\[(?:INST|\/INST|CLS|SEP|PAD|UNK|MASK)\]/,
    encode(text: string): Encoding {
      const ids: number[] = [];
      const offsets: CharSpan[] = [];
      for (let index = 0; index < text.length; ) {
        if (text.startsWith(stepTag, index)) {
          ids.push(stepTagId);
          offsets.push([index, index + stepTag.length]);
          index += stepTag.length;
          continue;
        }
        const codePoint = text.codePointAt(index)!;
        const length = codePoint > 0xffff ? 2 : 1;
        ids.push(codePoint);
        offsets.push([index, index + length]);
        index += length;
      }
      return { ids, offsets };
    },
    decode(ids: readonly number[]): string {
      return ids.map((id) => (id === stepTagId ? stepTag : String.fromCodePoint(id))).join('');
    },
    tokenToId(token: string): number | undefined {
      if (token === stepTag) return stepTagId;
      const codePoint = token.codePointAt(0);
      return codePoint !== undefined && token.length === (codePoint > 0xffff ? 2 : 1) ? codePoint : undefined;
    },
  };
}
