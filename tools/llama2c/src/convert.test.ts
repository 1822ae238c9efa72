import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadDecoderFolder } from '@reward-lens/core/node';
import { afterAll, describe, expect, it } from 'vitest';
import { convertLlama2c } from './convert.js';

/** A file of the shared test data (../shared/data beside the repository); never copied in. */
function sharedData(relative: string): string {
  const root = process.env.REWARD_LENS_SHARED_DATA ?? fileURLToPath(new URL('../../../../shared/data/', import.meta.url));
  const path = join(root, relative);
  if (!existsSync(path)) throw new Error(`shared test data file is missing: ${path}`);
  return path;
}

const root = await mkdtemp(join(tmpdir(), 'reward-lens-tool-llama2c-'));
afterAll(() => rm(root, { recursive: true, force: true }));

describe('convertLlama2c', () => {
  it('writes stories260K as a Hugging Face folder', async () => {
    const outFolder = join(root, 'stories260k');
    const config = await convertLlama2c(sharedData('stories260k/stories260K.bin'), sharedData('stories260k/tok512.bin'), outFolder);
    expect(config).toMatchObject({ hiddenSize: 64, numLayers: 5, vocabSize: 512 });
    const configJson = JSON.parse(await readFile(join(outFolder, 'config.json'), 'utf8')) as Record<string, unknown>;
    expect(configJson.architectures).toEqual(['LlamaForCausalLM']);
    const tokenizerConfig = JSON.parse(await readFile(join(outFolder, 'tokenizer_config.json'), 'utf8')) as Record<string, unknown>;
    expect(tokenizerConfig).toMatchObject({ bos_token: '<s>', eos_token: '</s>', add_bos_token: true });
    const loaded = await loadDecoderFolder(outFolder, { heads: [{ name: 'lm', kind: 'lm' }] });
    expect(loaded.model.config).toEqual(config);
  });

  it('names a missing input file', async () => {
    await expect(convertLlama2c(join(root, 'absent.bin'), sharedData('stories260k/tok512.bin'), join(root, 'never'))).rejects.toThrow(/absent\.bin/);
  });
});
