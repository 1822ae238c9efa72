import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRandomDecoder, defineDecoderConfig, isDecoderSource, registerBackend, tinyDecoderConfig } from '@reward-lens/spec';
import { writeDecoderFolder } from '@reward-lens/loaders/node';
import { spellBytesByteLevel } from '@reward-lens/tokenizers';
import { afterAll, describe, expect, it } from 'vitest';
import { createReferenceBackend } from '../testing/reference/reference-backend.js';
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
const vocab: Record<string, number> = {};
for (let byte = 0; byte < 256; byte += 1) vocab[spellBytesByteLevel(Uint8Array.of(byte))] = byte;
const tokenizerJson = {
  added_tokens: [],
  normalizer: null,
  pre_tokenizer: { type: 'ByteLevel', add_prefix_space: false, use_regex: true },
  post_processor: null,
  decoder: { type: 'ByteLevel' },
  model: { type: 'BPE', vocab, merges: [] },
};

const handed: string[][] = [];
const remove = registerBackend({
  name: 'oracle-for-lm',
  priority: 0,
  explicitOnly: true,
  sourceKinds: ['decoder'],
  unavailableReason: () => null,
  async create(source) {
    const decoder = isDecoderSource(source) ? source.model : model;
    handed.push(decoder.config.heads.map((head) => head.name));
    return createReferenceBackend(decoder);
  },
});
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
    expect(handed.at(-1)).toEqual(['lm']);
    const [viaFolder] = await generate(loaded.backend, loaded.tokenizer, ['Compute 2+2.'], { maxTokens: 6 });
    const [viaModel] = await generate(createReferenceBackend(model), loaded.tokenizer, ['Compute 2+2.'], { maxTokens: 6 });
    expect(viaFolder!.tokenIds).toHaveLength(6);
    expect(viaFolder!.tokenIds).toEqual(viaModel!.tokenIds);
    await loaded.dispose();
  });
});
