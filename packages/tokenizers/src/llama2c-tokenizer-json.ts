import { bpeTokenizerJson } from './bpe-tokenizer-json.js';
import { ModelLoadError } from '@reward-lens/spec';
import type { Llama2cTokenizer } from './llama2c-tokenizer.js';

/** run.c hard-codes these ids; llama2.c's export names them "<unk>", "\n<s>\n", "\n</s>\n". */
const specialTokens = ['<unk>', '<s>', '</s>'] as const;
/** SentencePiece's visible space, which Hugging Face's Llama tokenizers use in place of ' '. */
export const metaspace = '\u2581';

/** Llama's legacy SentencePiece normalizer, as transformers writes it: the dummy-prefix space prepended, spaces spelled `▁`. A fresh object each call, so that a caller may edit the file it goes into. */
export function sentencePieceLegacyNormalizer(): Record<string, unknown> {
  return {
    type: 'Sequence',
    normalizers: [
      { type: 'Prepend', prepend: metaspace },
      { type: 'Replace', pattern: { String: ' ' }, content: metaspace },
    ],
  };
}

/** Llama's SentencePiece decoder, as transformers writes it: `▁` back to spaces, byte tokens joined, the dummy prefix stripped. A fresh object each call. */
export function sentencePieceDecoder(): Record<string, unknown> {
  return {
    type: 'Sequence',
    decoders: [
      { type: 'Replace', pattern: { String: metaspace }, content: ' ' },
      { type: 'ByteFallback' },
      { type: 'Fuse' },
      { type: 'Strip', content: ' ', start: 1, stop: 0 },
    ],
  };
}

/**
 * A Hugging Face `tokenizer.json` (SentencePiece-style BPE with byte fallback, as transformers
 * writes for Llama) that encodes as llama2.c's `encode()` does:
 * - the normalizer prepends the dummy-prefix space and spells spaces `▁` (empty text stays empty);
 * - merges are every pair of pieces whose concatenation is a piece, ranked by that piece's score,
 *   so the lowest-rank merge is llama2.c's highest-scoring pair (one pair in several places merges
 *   leftmost first in both);
 * - characters that are no piece fall back to `<0xNN>` tokens (id = byte + 3, as run.c assumes);
 * - the post-processor adds `<s>` (id 1) when `add_special_tokens` is set.
 * Decoding maps `▁` back to spaces, joins byte tokens and strips the dummy prefix; with
 * `skip_special_tokens: true` it gives what run.c prints after BOS.
 *
 * Known differences from run.c (each pinned by a test):
 * - a literal `▁` (U+2581) in the text reads as a space (run.c spells it as three byte tokens);
 * - the literal strings `<unk>`, `<s>` and `</s>` read as those special tokens;
 * - merge pairs of equal score (two pieces with one score, or two splits of one piece) are
 *   taken left to right by run.c but in merge-rank order here, which differs when they overlap;
 *   tok512.bin has no two mergeable pieces with one score, and 30,000 random plus 6,000 real
 *   texts encoded identically;
 * - the decoder strips one leading space even when no `<s>` precedes it.
 */
export function llama2cTokenizerToHfJson(tokenizer: Llama2cTokenizer, fileName = 'tokenizer'): Record<string, unknown> {
  const { pieces } = tokenizer;
  const fail = (message: string): never => {
    throw new ModelLoadError(`cannot express this llama2.c tokenizer as tokenizer.json: ${message}`, { file: fileName });
  };
  if (pieces.length < 3 + 256) fail(`it has ${pieces.length} pieces; run.c needs 3 special tokens and 256 byte tokens`);
  for (let byte = 0; byte < 256; byte++) {
    const expected = `<0x${byte.toString(16).toUpperCase().padStart(2, '0')}>`;
    if (pieces[byte + 3]!.text !== expected) fail(`piece ${byte + 3} is ${JSON.stringify(pieces[byte + 3]!.text)}, run.c expects ${expected}`);
  }
  const names = pieces.map((piece, id) => (id < specialTokens.length ? specialTokens[id]! : piece.text.replaceAll(' ', metaspace)));
  // No prototype, so that a piece spelled "__proto__" is an ordinary key.
  const vocab = Object.create(null) as Record<string, number>;
  for (const [id, name] of names.entries()) {
    if (Object.hasOwn(vocab, name)) fail(`pieces ${vocab[name]} and ${id} both read ${JSON.stringify(name)}`);
    vocab[name] = id;
  }
  const merges: Array<{ pair: [string, string]; score: number; id: number }> = [];
  for (let id = specialTokens.length; id < names.length; id++) {
    const characters = Array.from(names[id]!);
    for (let split = 1; split < characters.length; split++) {
      const left = characters.slice(0, split).join('');
      const right = characters.slice(split).join('');
      const leftId = vocab[left];
      const rightId = vocab[right];
      if (leftId !== undefined && rightId !== undefined && leftId >= specialTokens.length && rightId >= specialTokens.length) {
        merges.push({ pair: [left, right], score: pieces[id]!.score, id });
      }
    }
  }
  merges.sort((left, right) => right.score - left.score || left.id - right.id);
  const bos = { SpecialToken: { id: '<s>', type_id: 0 } };
  return bpeTokenizerJson({
    specialTokens,
    vocab,
    merges: merges.map((merge) => merge.pair),
    normalizer: sentencePieceLegacyNormalizer(),
    postProcessor: {
      type: 'TemplateProcessing',
      single: [bos, { Sequence: { id: 'A', type_id: 0 } }],
      pair: [bos, { Sequence: { id: 'A', type_id: 0 } }, { SpecialToken: { id: '<s>', type_id: 1 } }, { Sequence: { id: 'B', type_id: 1 } }],
      special_tokens: { '<s>': { id: '<s>', ids: [1], tokens: ['<s>'] } },
    },
    decoder: sentencePieceDecoder(),
    byteFallback: true,
    fuseUnknown: true,
    ignoreMerges: false,
  });
}

/** The `tokenizer_config.json` that goes with it: BOS added, no EOS, no space clean-up. */
export function llama2cTokenizerConfig(maxPositions: number): Record<string, unknown> {
  return {
    tokenizer_class: 'LlamaTokenizer',
    add_bos_token: true,
    add_eos_token: false,
    bos_token: '<s>',
    eos_token: '</s>',
    unk_token: '<unk>',
    clean_up_tokenization_spaces: false,
    legacy: true,
    model_max_length: maxPositions,
  };
}
