export { createByteBpeTokenizer, ByteBpeTokenizer } from './byte-bpe-tokenizer.js';
export type { ByteBpeTokenizerOptions } from './byte-bpe-tokenizer.js';
export type { CharSpan, Encoding, PrmTokenizer } from './tokenizer.js';
export { createHfTokenizer, type HfTokenizerOptions, type HfAddedToken } from './hf-tokenizer.js';
