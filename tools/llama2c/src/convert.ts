import { readFile } from 'node:fs/promises';
import { basename } from 'node:path';
import { fileURLToPath } from 'node:url';
import { convertLlama2cToHf, type DecoderConfig } from '@reward-lens/core';
import { writeDecoderFolder } from '@reward-lens/core/node';

/**
 * Converts a llama2.c checkpoint (`run.c`'s legacy format) and its `tokenizer.bin` into a
 * Hugging Face folder: config.json (LlamaForCausalLM), model.safetensors, tokenizer.json and
 * tokenizer_config.json. Returns the model's config.
 *
 * @example
 * await convertLlama2c('stories260K.bin', 'tok512.bin', 'out/stories260k');
 */
export async function convertLlama2c(checkpointPath: string, tokenizerPath: string, outFolder: string): Promise<DecoderConfig> {
  const conversion = convertLlama2cToHf(
    { bytes: await readFile(checkpointPath), fileName: checkpointPath },
    { bytes: await readFile(tokenizerPath), fileName: tokenizerPath },
  );
  await writeDecoderFolder(outFolder, conversion);
  return conversion.model.config;
}

async function main(argumentList: string[]): Promise<number> {
  const [checkpointPath, tokenizerPath, outFolder] = argumentList;
  if (argumentList.length !== 3 || !checkpointPath || !tokenizerPath || !outFolder) {
    process.stderr.write('usage: convert <checkpoint.bin> <tokenizer.bin> <out-folder>\n');
    return 2;
  }
  try {
    const config = await convertLlama2c(checkpointPath, tokenizerPath, outFolder);
    process.stdout.write(
      `wrote ${outFolder}: ${basename(checkpointPath)} as LlamaForCausalLM ` +
        `(${config.numLayers} layers, hidden ${config.hiddenSize}, vocab ${config.vocabSize})\n`,
    );
    return 0;
  } catch (error) {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
    return 1;
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  void main(process.argv.slice(2)).then((code) => {
    process.exitCode = code;
  });
}
