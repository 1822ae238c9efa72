/** `[start, end)` in UTF-16 code units of the encoded text. */
export type CharSpan = readonly [start: number, end: number];

export interface Encoding {
  ids: number[];
  /**
   * Per token, the smallest character span covering the token's bytes. Tokens that hold only part
   * of one character (a byte-level piece of an emoji, say) share that character's span. Spans are
   * non-decreasing and together cover the text with no gap.
   */
  offsets: CharSpan[];
}

/** What ProcessRM needs of a tokenizer: ids with exact character offsets. */
export interface PrmTokenizer {
  readonly name: string;
  readonly vocabSize: number;
  readonly bosTokenId: number | null;
  readonly eosTokenId: number | null;
  /** Id used for padding cells (never read). */
  readonly padTokenId: number;
  /** Encodes without adding special tokens. */
  encode(text: string): Encoding;
  /**
   * The spellings `encode` turns into control tokens (a `tokenizer.json`'s special added tokens:
   * `<s>`, `<|im_start|>`). Core encodes user text so that it never produces one: an occurrence
   * in a problem or step is encoded as plain text. Omitted: none.
   */
  readonly controlTokens?: readonly string[];
  /**
   * For a stand-in whose text is tokenized elsewhere (a server's tokenizer): spellings that the
   * other tokenizer may read as control tokens (`<|im_start|>`, `<s>`). The text is sent as it is,
   * so user text that spells one is refused with a typed error instead. Omitted: none.
   */
  readonly refusedSpellings?: RegExp;
  decode(ids: readonly number[]): string;
  /** The id of a token spelled exactly so (a special token or step tag), when it is one token. */
  tokenToId(token: string): number | undefined;
}
