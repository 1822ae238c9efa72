import { bpeTokenizerJson } from '@reward-lens/core';
import { organismVocabulary } from './vocabulary.js';

/** The special tokens of the Hugging Face form, ids 0–3. */
const specialTokens = ['<pad>', '<s>', '</s>', '<unk>'] as const;

/**
 * How the pre-tokenizer cuts text: a word or one digit or one other character, each with the space
 * before it when there is one, or a lone whitespace character (a newline, a second space).
 * Every character is kept, so character offsets are exact.
 */
export const organismPieceRegex = String.raw` ?\p{L}+| ?\p{N}| ?[^\s\p{L}\p{N}]|\s`;

/** Printable ASCII, for spelling words the organism does not use one character at a time. */
const asciiCharacters = Array.from({ length: 0x7f - 0x20 }, (_, index) => String.fromCharCode(0x20 + index));

/**
 * The organism's vocabulary as a Hugging Face `tokenizer.json` (and its `tokenizer_config.json`),
 * so a model trained on organism text is an ordinary model folder that `ProcessRM.fromPretrained`,
 * transformers.js and the tokenizers library read. Each organism word, digit and symbol is one
 * token, with a second token for it after a space (` pencils`, ` 3`); digits are always single
 * tokens, so `36` is `3`, `6` and ` 36` is ` 3`, `6`. Text outside the organism's language still
 * encodes: an unknown word is spelled in single characters, and any other character in its UTF-8
 * bytes (`<0xE2>`...), never an unknown token. Ids: `<pad>`, `<s>`, `</s>`, `<unk>`, the
 * newline, the organism's tokens, their spaced forms, the ASCII characters, the 256 bytes.
 *
 * @example
 * const { tokenizerJson, tokenizerConfig } = organismTokenizerJson();
 * const tokenizer = createHfTokenizer(tokenizerJson, tokenizerConfig); // '3 × 12 = 36' → 3, ' ×', ' 1', 2, ' =', ' 3', 6
 */
export function organismTokenizerJson(): { tokenizerJson: Record<string, unknown>; tokenizerConfig: Record<string, unknown> } {
  const vocab: Record<string, number> = {};
  const add = (token: string) => {
    if (!(token in vocab)) vocab[token] = Object.keys(vocab).length;
  };
  for (const token of specialTokens) add(token);
  const organismTokens = organismVocabulary().tokens;
  for (const token of organismTokens) add(token);
  for (const token of organismTokens) if (token !== '\n') add(` ${token}`);
  for (const character of asciiCharacters) add(character);
  for (let byte = 0; byte < 256; byte++) add(`<0x${byte.toString(16).toUpperCase().padStart(2, '0')}>`);
  return {
    tokenizerJson: bpeTokenizerJson({
      specialTokens,
      vocab,
      preTokenizer: { type: 'Split', pattern: { Regex: organismPieceRegex }, behavior: 'Isolated', invert: false },
      decoder: { type: 'Sequence', decoders: [{ type: 'ByteFallback' }, { type: 'Fuse' }] },
      byteFallback: true,
      // A whole piece that is a token is that token; any other piece falls apart into characters (there are no merges).
      ignoreMerges: true,
    }),
    tokenizerConfig: {
      tokenizer_class: 'PreTrainedTokenizerFast',
      bos_token: '<s>',
      eos_token: '</s>',
      pad_token: '<pad>',
      unk_token: '<unk>',
      add_bos_token: true,
      model_max_length: 1024,
      clean_up_tokenization_spaces: false,
    },
  };
}
