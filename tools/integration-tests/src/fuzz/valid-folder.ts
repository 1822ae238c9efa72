import { readFile } from 'node:fs/promises';
import { convertLlama2cToHf, createRandomDecoder, defineDecoderConfig } from '@reward-lens/core';
import { writeDecoderFolder } from '@reward-lens/core/node';
import { sharedDataPath, smallLlamaFields } from '@reward-lens/test-data';

/**
 * A valid PRM folder to corrupt: a small random Llama sequence classifier (its `score` head is
 * read at every step) with stories260K's real tokenizer.
 */
export async function writeRandomClassifierFolder(folder: string): Promise<void> {
  const checkpoint = sharedDataPath('stories260k/stories260K.bin');
  const tokenizerFile = sharedDataPath('stories260k/tok512.bin');
  const {
    tokenizerJson,
    tokenizerConfig,
    model: stories,
  } = convertLlama2cToHf({ bytes: await readFile(checkpoint), fileName: checkpoint }, { bytes: await readFile(tokenizerFile), fileName: tokenizerFile });
  const config = defineDecoderConfig({
    ...smallLlamaFields,
    vocabSize: stories.config.vocabSize,
    maxPositions: 256,
    heads: [{ name: 'value', kind: 'value', weight: 'score.weight' }],
  });
  await writeDecoderFolder(folder, {
    model: createRandomDecoder({ seed: 5, config }),
    tokenizerJson,
    tokenizerConfig,
    hfConfig: { architectures: ['LlamaForSequenceClassification'], bosTokenId: 1, eosTokenId: 2 },
  });
}
