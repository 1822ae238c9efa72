import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRandomDecoder, type DecoderModelSource, defineDecoderConfig, type ModelSource, tinyDecoderConfig } from '@reward-lens/spec';
import { writeDecoderFolder } from '@reward-lens/loaders/node';
import { afterAll, describe, expect, it } from 'vitest';
import { createReferenceBackend } from '../testing/reference/reference-backend.js';
import { byteLevelTokenizerJson, registerOracle } from '../../test/support/byte-level-folder.js';
import { generate } from './generate.js';
import { loadLanguageModel } from './load-language-model.js';

// A folder holding a PRM (a value head beside a tied LM head), read as a causal LM: its LM head only.
const config = defineDecoderConfig({
  ...tinyDecoderConfig,
  vocabSize: 256,
  heads: [
    { name: 'lm', kind: 'lm' },
    { name: 'value', kind: 'value', weight: 'v_head.weight', bias: 'v_head.bias' },
  ],
});
const model = createRandomDecoder({ seed: 5, config });
const tokenizerJson = byteLevelTokenizerJson();

const handed: ModelSource[] = [];
const remove = registerOracle('oracle-for-lm', model, handed);
const root = await mkdtemp(join(tmpdir(), 'reward-lens-language-model-'));
afterAll(async () => {
  remove();
  await rm(root, { recursive: true, force: true });
});

describe('loadLanguageModel: a model folder as a causal LM for generate', () => {
  it('reads the LM head alone and generates as the same weights do', async () => {
    const folder = join(root, 'prm');
    await writeDecoderFolder(folder, { model, tokenizerJson, hfConfig: { architectures: ['LlamaForCausalLM'] } });
    const loaded = await loadLanguageModel(folder, { backend: 'oracle-for-lm' });
    expect((handed.at(-1) as DecoderModelSource).model.config.heads.map((head) => head.name)).toEqual(['lm']);
    const [viaFolder] = await generate(loaded.backend, loaded.tokenizer, ['Compute 2+2.'], { maxTokens: 6 });
    const [viaModel] = await generate(createReferenceBackend(model), loaded.tokenizer, ['Compute 2+2.'], { maxTokens: 6 });
    expect(viaFolder!.tokenIds).toHaveLength(6);
    expect(viaFolder!.tokenIds).toEqual(viaModel!.tokenIds);
    await loaded.dispose();
  });
});
