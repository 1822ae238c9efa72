// The public API of @reward-lens/tokenizers, by name.
export type { CharSpan, Encoding, PrmTokenizer } from './tokenizer.js';
export { createHfTokenizer, type HfTokenizerOptions, type HfAddedToken } from './hf-tokenizer.js';
export { createByteBpeTokenizer, ByteBpeTokenizer } from './byte-bpe-tokenizer.js';
export type { ByteBpeTokenizerOptions } from './byte-bpe-tokenizer.js';
export { createCharacterTokenizer } from './character-tokenizer.js';
export { characterTokenizerJson } from './character-tokenizer-json.js';
export { parseLlama2cTokenizer, type Llama2cPiece, type Llama2cTokenizer } from './llama2c-tokenizer.js';
export { llama2cTokenizerConfig, llama2cTokenizerToHfJson } from './llama2c-tokenizer-json.js';
// GPT-2's byte-to-character table, as byte-level BPE files spell tokens (Hugging Face's `bytes_to_unicode`).
export { byteLevelTokenBytes, spellBytesByteLevel } from './hf-offsets-byte-level.js';
export { bpeTokenizerJson, type BpeTokenizerJsonParts } from './bpe-tokenizer-json.js';
