import type { DecoderModel } from '@reward-lens/spec';
import type { DecoderConfigToHfOptions } from './hf-config.js';
import { parseLlama2cCheckpoint } from './llama2c-checkpoint.js';
import { llama2cTokenizerConfig, llama2cTokenizerToHfJson, parseLlama2cTokenizer } from '@reward-lens/tokenizers';

/** What a Hugging Face folder for a llama2.c model holds; `writeDecoderFolder` takes it as is. */
export interface Llama2cConversion {
  model: DecoderModel;
  tokenizerJson: Record<string, unknown>;
  tokenizerConfig: Record<string, unknown>;
  hfConfig: DecoderConfigToHfOptions;
  /** `generation_config.json`: llama2.c's run.c ends a story when it samples BOS, so EOS is `[2, 1]`. */
  generationConfig: Record<string, unknown>;
}

/**
 * Converts a llama2.c checkpoint and its `tokenizer.bin` to Hugging Face form: a
 * `LlamaForCausalLM` with BOS 1 and EOS 2, a generation config that also stops at BOS (as run.c
 * does), and a tokenizer that encodes as run.c does.
 *
 * @example
 * const conversion = convertLlama2cToHf(
 *   { bytes: await readFile('stories260K.bin'), fileName: 'stories260K.bin' },
 *   { bytes: await readFile('tok512.bin'), fileName: 'tok512.bin' },
 * );
 * await writeDecoderFolder('stories260k-hf', conversion);
 */
export function convertLlama2cToHf(checkpoint: { bytes: Uint8Array; fileName: string }, tokenizer: { bytes: Uint8Array; fileName: string }): Llama2cConversion {
  const model = parseLlama2cCheckpoint(checkpoint.bytes, checkpoint.fileName);
  const pieces = parseLlama2cTokenizer(tokenizer.bytes, model.config.vocabSize, tokenizer.fileName);
  return {
    model,
    tokenizerJson: llama2cTokenizerToHfJson(pieces, tokenizer.fileName),
    tokenizerConfig: llama2cTokenizerConfig(model.config.maxPositions),
    hfConfig: { architectures: ['LlamaForCausalLM'], bosTokenId: 1, eosTokenId: 2 },
    generationConfig: { bos_token_id: 1, eos_token_id: [2, 1] },
  };
}
