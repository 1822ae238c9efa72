import { bpeTokenizerJson } from './bpe-tokenizer-json.js';

/**
 * A `tokenizer.json` that spells text one character per token (a BPE model with no merges),
 * with `<pad>`, `<s>`, `</s>` and `<unk>` as ids 0..3, and its `tokenizer_config.json`. Digits
 * are single tokens, which helps a small model check arithmetic. The alphabet is the set of
 * characters of `texts` (in code-point order), so the same texts give the same tokenizer.
 */
export function characterTokenizerJson(texts: Iterable<string>): { tokenizerJson: Record<string, unknown>; tokenizerConfig: Record<string, unknown> } {
  const characters = new Set<string>();
  for (const text of texts) for (const character of text) characters.add(character);
  const special = ['<pad>', '<s>', '</s>', '<unk>'];
  const vocab: Record<string, number> = {};
  special.forEach((token, id) => {
    vocab[token] = id;
  });
  [...characters]
    .sort((left, right) => left.codePointAt(0)! - right.codePointAt(0)!)
    .forEach((character, index) => {
      vocab[character] = special.length + index;
    });
  return {
    tokenizerJson: bpeTokenizerJson({ specialTokens: special, vocab }),
    tokenizerConfig: { bos_token: '<s>', eos_token: '</s>', pad_token: '<pad>', unk_token: '<unk>', model_max_length: 1_000_000 },
  };
}
