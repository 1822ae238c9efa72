import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Tokenizer } from '@huggingface/tokenizers';
import { afterAll, describe, expect, it } from 'vitest';
import { convertLlama2cToHf } from './llama2c-conversion.js';
import { loadDecoderFolder, writeDecoderFolder } from './model-folder.js';
import { sharedDataPath } from '@reward-lens/test-data';

const root = await mkdtemp(join(tmpdir(), 'reward-lens-llama2c-'));
afterAll(() => rm(root, { recursive: true, force: true }));

describe('llama2.c to Hugging Face', () => {
  it('writes stories260K as a LlamaForCausalLM folder that loads back with its tokenizer', async () => {
    const checkpointPath = sharedDataPath('stories260k/stories260K.bin');
    const tokenizerPath = sharedDataPath('stories260k/tok512.bin');
    const conversion = convertLlama2cToHf(
      { bytes: await readFile(checkpointPath), fileName: checkpointPath },
      { bytes: await readFile(tokenizerPath), fileName: tokenizerPath },
    );
    const folder = join(root, 'stories260k');
    await writeDecoderFolder(folder, conversion);

    const config = JSON.parse(await readFile(join(folder, 'config.json'), 'utf8')) as Record<string, unknown>;
    expect(config).toMatchObject({
      architectures: ['LlamaForCausalLM'],
      model_type: 'llama',
      bos_token_id: 1,
      eos_token_id: 2,
      tie_word_embeddings: true,
      rms_norm_eps: 1e-5,
    });
    const loaded = await loadDecoderFolder(folder, { heads: [{ name: 'lm', kind: 'lm' }] });
    expect(loaded.model.config).toEqual(conversion.model.config);
    expect(loaded.model.tensors.get('model.layers.4.self_attn.k_proj.weight')).toEqual(conversion.model.tensors.get('model.layers.4.self_attn.k_proj.weight'));
    expect(loaded.tokenizerConfig).toMatchObject({ bos_token: '<s>', eos_token: '</s>', add_bos_token: true });

    const tokenizer = new Tokenizer(loaded.tokenizerJson as object, loaded.tokenizerConfig as object);
    const ids = tokenizer.encode('Once upon a time', { add_special_tokens: true }).ids;
    expect(ids[0]).toBe(1);
    expect(tokenizer.decode(ids, { skip_special_tokens: true })).toBe('Once upon a time');
  });
});
