import { createHfTokenizer, createRandomDecoder, defineDecoderConfig, recipePresets, tinyDecoderConfig } from '@reward-lens/core';
import { writeDecoderFolder } from '@reward-lens/core/node';
import { organismTokenizerJson } from '@reward-lens/organism';

/**
 * A model folder as a user would have one: a Llama token classifier (TRL's PRMTrainer layout,
 * so config.json's architecture implies the recipe) with the organism's tokenizer.json and
 * seeded random weights, in model.safetensors.
 */
export async function writeTokenClassifierFolder(folder: string): Promise<void> {
  const { tokenizerJson, tokenizerConfig } = organismTokenizerJson();
  const vocabSize = createHfTokenizer(tokenizerJson, tokenizerConfig).vocabSize;
  const config = defineDecoderConfig({ ...tinyDecoderConfig, vocabSize, heads: recipePresets['trl-token-classification']!.heads });
  await writeDecoderFolder(folder, {
    model: createRandomDecoder({ seed: 3, config }),
    tokenizerJson,
    tokenizerConfig,
    hfConfig: { architectures: ['LlamaForTokenClassification'] },
  });
}
