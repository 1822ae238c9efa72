import { readFile } from 'node:fs/promises';
import { convertLlama2cToHf, createRandomDecoder, defineDecoderConfig, type HeadSpec } from '@reward-lens/core';
import { writeDecoderFolder } from '@reward-lens/core/node';
import { sharedDataPath, smallLlamaFields } from '@reward-lens/test-data';

/** llama2.c's stories260K files in the shared test data, with run.c's greedy 200 tokens from BOS. */
export function stories260kFiles() {
  return {
    checkpoint: sharedDataPath('stories260k/stories260K.bin'),
    tokenizer: sharedDataPath('stories260k/tok512.bin'),
    greedy200: sharedDataPath('stories260k/greedy-200.txt'),
  };
}

async function convertStories260k() {
  const files = stories260kFiles();
  return convertLlama2cToHf(
    { bytes: await readFile(files.checkpoint), fileName: files.checkpoint },
    { bytes: await readFile(files.tokenizer), fileName: files.tokenizer },
  );
}

/** stories260K as a Hugging Face folder (a `LlamaForCausalLM`, so no PRM recipe is implied). */
export async function writeStories260kFolder(folder: string): Promise<void> {
  await writeDecoderFolder(folder, await convertStories260k());
}

/**
 * A small random Llama with a one-output `score` head and stories260K's tokenizer, written as a
 * Hugging Face folder whose config.json names `architectures` (a `*ForSequenceClassification`
 * implies the sequence-classifier recipe). Its scores are noise; what it reads is exact.
 */
export async function writeRandomClassifierFolder(folder: string, options: { architectures: string[]; maxPositions?: number; seed?: number }): Promise<void> {
  const { tokenizerJson, tokenizerConfig, model: stories } = await convertStories260k();
  const heads: HeadSpec[] = [{ name: 'value', kind: 'value', weight: 'score.weight' }];
  const config = defineDecoderConfig({ ...smallLlamaFields, vocabSize: stories.config.vocabSize, maxPositions: options.maxPositions ?? 256, heads });
  await writeDecoderFolder(folder, {
    model: createRandomDecoder({ seed: options.seed ?? 5, config }),
    tokenizerJson,
    tokenizerConfig,
    hfConfig: { architectures: options.architectures, bosTokenId: 1, eosTokenId: 2 },
  });
}
