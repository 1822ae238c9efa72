import { Tokenizer } from '@huggingface/tokenizers';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { byteLevelTokenBytes } from './hf-offsets-byte-level.js';
import { createHfTokenizer } from './hf-tokenizer.js';
import { byteLevelBytesOf, expectExactOffsets, loadLenmlTokenizer, mixedText, withAddedTokens } from '@reward-lens/test-data/tokenizer-checks';

// Qwen2-family byte-level BPE with an NFC normalizer; `<extra_0>` as Qwen2.5-Math-PRM has it.
const { json, config } = loadLenmlTokenizer('qwen3');
const stepTag = { content: '<extra_0>', id: 151651 };
const tokenizer = createHfTokenizer(json, config, { addedTokens: [stepTag] });
const reference = new Tokenizer(withAddedTokens(json, [stepTag]), config);
const bytesOf = byteLevelBytesOf(withAddedTokens(json, [stepTag]), byteLevelTokenBytes);
const nfc = (text: string) => text.normalize('NFC');

describe('hf tokenizer: Qwen3 (byte-level BPE, NFC)', () => {
  it('reads ids and special tokens from the files', () => {
    expect(tokenizer.name).toBe('hf:Qwen2Tokenizer');
    expect(tokenizer.vocabSize).toBe(151669);
    expect(tokenizer.bosTokenId).toBeNull(); // bos_token: null in tokenizer_config.json
    expect(tokenizer.eosTokenId).toBe(151645); // <|im_end|>
    expect(tokenizer.padTokenId).toBe(151643); // <|endoftext|>
    expect(tokenizer.tokenToId('<extra_0>')).toBe(151651);
    expect(tokenizer.tokenToId('<|quad_end|>')).toBe(reference.token_to_id('<|quad_end|>'));
    expect(tokenizer.tokenToId(' the')).toBe(reference.token_to_id('Ġthe'));
    expect(tokenizer.tokenToId('\n\n')).toBe(271);
    expect(tokenizer.tokenToId(' ки')).toBeUndefined();
  });

  it('gives the library ids and exact offsets on mixed text', () => {
    fc.assert(
      fc.property(mixedText, (text) => {
        const encoding = tokenizer.encode(text);
        expect(encoding.ids).toEqual(text.length === 0 ? [] : reference.encode(text, { add_special_tokens: false }).ids);
        expectExactOffsets(text, encoding, bytesOf, nfc);
        expect(tokenizer.decode(encoding.ids)).toBe(nfc(text));
      }),
      { numRuns: 300 },
    );
  });

  it('maps an NFC-composed character to its whole source span', () => {
    const text = 'Re\u0301sume\u0301 \u212b';
    const { ids, offsets } = tokenizer.encode(text);
    expect(ids).toEqual(reference.encode(text, { add_special_tokens: false }).ids);
    // No token boundary falls between a letter and its combining accent (units 2 and 7).
    expect(offsets.flat().filter((position) => position === 2 || position === 7)).toEqual([]);
    expect(offsets.at(-1)![1]).toBe(text.length); // U+212B, read as U+00C5, still ends the text
    expectExactOffsets(text, { ids, offsets }, bytesOf, nfc);
  });

  it('encodes <extra_0> as one token spanning its literal text', () => {
    const text = 'Step 1: 2+2=4.<extra_0>Step 2: 4×3=12<extra_0>';
    const { ids, offsets } = tokenizer.encode(text);
    const tagIndexes = ids.flatMap((id, index) => (id === 151651 ? [index] : []));
    expect(tagIndexes).toHaveLength(2);
    expect(offsets[tagIndexes[0]!]).toEqual([14, 23]);
    expect(offsets[tagIndexes[1]!]).toEqual([text.length - 9, text.length]);
    expect(text.slice(...offsets[tagIndexes[0]!]!)).toBe('<extra_0>');
  });
});
