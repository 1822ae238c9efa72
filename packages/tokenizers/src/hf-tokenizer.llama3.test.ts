import { Tokenizer } from '@huggingface/tokenizers';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { byteLevelTokenBytes } from './hf-offsets-byte-level.js';
import { createHfTokenizer } from './hf-tokenizer.js';
import { byteLevelBytesOf, expectExactOffsets, loadLenmlTokenizer, mixedText } from '@reward-lens/test-data/tokenizer-checks';

// Llama-3: byte-level BPE, no normalizer, 256 special tokens.
const { json, config } = loadLenmlTokenizer('llama3');
const tokenizer = createHfTokenizer(json, config);
const reference = new Tokenizer(json, config);
const bytesOf = byteLevelBytesOf(json, byteLevelTokenBytes);

describe('hf tokenizer: Llama-3 (byte-level BPE)', () => {
  it('reads ids and special tokens from the files', () => {
    expect(tokenizer.name).toBe('hf:PreTrainedTokenizerFast');
    expect(tokenizer.vocabSize).toBe(128256);
    expect(tokenizer.bosTokenId).toBe(128000); // <|begin_of_text|>
    expect(tokenizer.eosTokenId).toBe(128001); // <|end_of_text|>
    expect(tokenizer.padTokenId).toBe(128001); // no pad_token: EOS
    expect(tokenizer.tokenToId(' ки')).toBe(reference.token_to_id('ĠÐºÐ¸'));
    expect(tokenizer.tokenToId('<|eot_id|>')).toBe(128009);
  });

  it('gives the library ids and exact offsets on mixed text', () => {
    fc.assert(
      fc.property(mixedText, (text) => {
        const encoding = tokenizer.encode(text);
        expect(encoding.ids).toEqual(text.length === 0 ? [] : reference.encode(text, { add_special_tokens: false }).ids);
        expectExactOffsets(text, encoding, bytesOf);
        expect(tokenizer.decode(encoding.ids)).toBe(text);
      }),
      { numRuns: 300 },
    );
  });

  it('gives special tokens their literal span', () => {
    const text = '<|begin_of_text|>Hi<|eot_id|>\n';
    const { ids, offsets } = tokenizer.encode(text);
    expect(ids[0]).toBe(128000);
    expect(offsets[0]).toEqual([0, 17]);
    expect(offsets[ids.indexOf(128009)]).toEqual([19, 29]);
  });
});
