/** What a BPE `tokenizer.json` is made of; the rest of the file is fixed. */
export interface BpeTokenizerJsonParts {
  /** Ids 0..n-1, added as special tokens (matched literally, never split). */
  specialTokens: readonly string[];
  vocab: Record<string, number>;
  merges?: readonly (readonly [string, string])[];
  normalizer?: unknown;
  preTokenizer?: unknown;
  postProcessor?: unknown;
  decoder?: unknown;
  /** Pieces absent from the vocabulary as `<0xNN>` byte tokens (SentencePiece's byte fallback). */
  byteFallback?: boolean;
  fuseUnknown?: boolean;
  /** A whole piece that is a token is that token, before any merge. */
  ignoreMerges?: boolean;
}

/**
 * A Hugging Face `tokenizer.json` (version 1.0) with a BPE model: the special tokens as added
 * tokens, `<unk>` as the unknown token, and the given normalizer, pre-tokenizer, post-processor
 * and decoder (null when absent). What the character, llama2c and organism tokenizers write.
 */
export function bpeTokenizerJson(parts: BpeTokenizerJsonParts): Record<string, unknown> {
  return {
    version: '1.0',
    truncation: null,
    padding: null,
    added_tokens: parts.specialTokens.map(specialAddedToken),
    normalizer: parts.normalizer ?? null,
    pre_tokenizer: parts.preTokenizer ?? null,
    post_processor: parts.postProcessor ?? null,
    decoder: parts.decoder ?? null,
    model: {
      type: 'BPE',
      dropout: null,
      unk_token: '<unk>',
      continuing_subword_prefix: null,
      end_of_word_suffix: null,
      fuse_unk: parts.fuseUnknown ?? false,
      byte_fallback: parts.byteFallback ?? false,
      ...(parts.ignoreMerges !== undefined ? { ignore_merges: parts.ignoreMerges } : {}),
      vocab: parts.vocab,
      merges: (parts.merges ?? []).map((merge) => [...merge]),
    },
  };
}

/** A special token as `tokenizer.json` lists it in `added_tokens`: matched whole, never normalized, nothing stripped. */
export function specialAddedToken(content: string, id: number): Record<string, unknown> {
  return { id, content, single_word: false, lstrip: false, rstrip: false, normalized: false, special: true };
}
