import { describe, expect, it } from 'vitest';
import { ModelLoadError, type HeadSpec, tinyDecoderConfig } from '@reward-lens/spec';

import { decoderConfigFromHf, decoderConfigToHf } from './hf-config.js';

const lmHead: HeadSpec[] = [{ name: 'lm', kind: 'lm' }];

// Abridged from the published config.json files.
const llama2Config = {
  architectures: ['LlamaForCausalLM'],
  model_type: 'llama',
  hidden_size: 4096,
  intermediate_size: 11008,
  num_attention_heads: 32,
  num_hidden_layers: 32,
  num_key_value_heads: 32,
  max_position_embeddings: 4096,
  rms_norm_eps: 1e-5,
  rope_scaling: null,
  tie_word_embeddings: false,
  vocab_size: 32000,
  hidden_act: 'silu',
  pretraining_tp: 1,
};
const mistralConfig = {
  architectures: ['MistralForCausalLM'],
  model_type: 'mistral',
  hidden_size: 4096,
  intermediate_size: 14336,
  num_attention_heads: 32,
  num_hidden_layers: 32,
  num_key_value_heads: 8,
  max_position_embeddings: 32768,
  rms_norm_eps: 1e-5,
  rope_theta: 10000.0,
  sliding_window: 4096,
  tie_word_embeddings: false,
  vocab_size: 32000,
};
const qwenPrmConfig = {
  architectures: ['Qwen2ForProcessRewardModel'],
  model_type: 'qwen2',
  hidden_size: 3584,
  intermediate_size: 18944,
  num_attention_heads: 28,
  num_hidden_layers: 28,
  num_key_value_heads: 4,
  max_position_embeddings: 4096,
  rms_norm_eps: 1e-6,
  rope_theta: 10000.0,
  sliding_window: 4096,
  use_sliding_window: false,
  tie_word_embeddings: false,
  vocab_size: 152064,
};

function loadError(json: unknown): ModelLoadError {
  try {
    decoderConfigFromHf(json, 'config.json', lmHead);
  } catch (error) {
    if (ModelLoadError.isInstance(error)) return error;
    throw error;
  }
  throw new Error('expected a ModelLoadError');
}

describe('Hugging Face config.json', () => {
  it('reads a Llama 2 config with transformers defaults', () => {
    const { config, notes } = decoderConfigFromHf(llama2Config, 'config.json', lmHead);
    expect(config).toEqual({
      architecture: 'llama',
      hiddenSize: 4096,
      numLayers: 32,
      numHeads: 32,
      numKvHeads: 32,
      headDim: 128,
      intermediateSize: 11008,
      vocabSize: 32000,
      maxPositions: 4096,
      ropeTheta: 10000,
      rmsNormEps: 1e-5,
      tieWordEmbeddings: false,
      attentionBias: false,
      heads: lmHead,
    });
    expect(notes).toEqual([]);
  });

  it('defaults num_key_value_heads to the attention heads and reads head_dim when given', () => {
    const { num_key_value_heads: _, ...withoutKvHeads } = llama2Config;
    expect(decoderConfigFromHf(withoutKvHeads, 'config.json', lmHead).config.numKvHeads).toBe(32);
    expect(decoderConfigFromHf({ ...llama2Config, head_dim: 64 }, 'config.json', lmHead).config.headDim).toBe(64);
    expect(decoderConfigFromHf({ ...llama2Config, attention_bias: true }, 'config.json', lmHead).config.attentionBias).toBe(true);
  });

  it('gives Qwen2 attention biases and reads a PRM head the caller names', () => {
    const heads: HeadSpec[] = [{ name: 'reward', kind: 'token-classification', numLabels: 2, weight: 'score.weight' }];
    const { config, notes } = decoderConfigFromHf(qwenPrmConfig, 'config.json', heads);
    expect(config).toMatchObject({ architecture: 'qwen2', attentionBias: true, numKvHeads: 4, headDim: 128, rmsNormEps: 1e-6, heads });
    // use_sliding_window is false, so the window is not in use (and it spans every position anyway).
    expect(notes).toEqual([]);
    const windowed = { ...qwenPrmConfig, use_sliding_window: true, max_position_embeddings: 32768 };
    expect(() => decoderConfigFromHf(windowed, 'config.json', heads)).toThrow(/sliding_window 4096 is in use/);
  });

  it('refuses a sliding window in use, naming the file and the setting; limit-positions loads it exactly up to the window', () => {
    let error: unknown;
    try {
      decoderConfigFromHf(mistralConfig, 'models/mistral/config.json', lmHead);
    } catch (caught) {
      error = caught;
    }
    expect(ModelLoadError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ file: 'models/mistral/config.json', setting: 'sliding_window' });
    expect((error as Error).message).toMatch(/^models\/mistral\/config\.json: sliding_window 4096 is in use \(shorter than max_position_embeddings 32768\)/);
    expect((error as Error).message).toContain("{ slidingWindow: 'limit-positions' }");

    const { config, notes } = decoderConfigFromHf(mistralConfig, 'config.json', lmHead, { slidingWindow: 'limit-positions' });
    expect(config).toMatchObject({ architecture: 'mistral', attentionBias: false, numKvHeads: 8, maxPositions: 4096 });
    expect(notes).toEqual([expect.stringMatching(/^positions limited to sliding_window 4096 \(of max_position_embeddings 32768\)/)]);
    // No window, or one that spans every position, is not in use.
    expect(decoderConfigFromHf({ ...mistralConfig, sliding_window: null }, 'config.json', lmHead).notes).toEqual([]);
    expect(decoderConfigFromHf({ ...mistralConfig, max_position_embeddings: 4096 }, 'config.json', lmHead).config.maxPositions).toBe(4096);
  });

  it('names rope_scaling as the refused setting', () => {
    expect(() => decoderConfigFromHf({ ...mistralConfig, sliding_window: null, rope_scaling: { type: 'linear', factor: 2 } }, 'config.json', lmHead)).toThrow(
      expect.objectContaining({ setting: 'rope_scaling' }),
    );
  });

  it('reads rope_theta from rope_parameters and accepts a "default" rope_scaling', () => {
    const { rope_theta: _, ...withoutTheta } = mistralConfig;
    const config = decoderConfigFromHf(
      { ...withoutTheta, sliding_window: null, rope_parameters: { rope_type: 'default', rope_theta: 1e6 }, rope_scaling: { type: 'default' } },
      'config.json',
      lmHead,
    ).config;
    expect(config.ropeTheta).toBe(1e6);
  });

  it('round-trips through decoderConfigToHf', () => {
    // Mistral's window limits its positions: the written config says so, with no window left to limit.
    for (const json of [llama2Config, mistralConfig, qwenPrmConfig]) {
      const { config } = decoderConfigFromHf(json, 'config.json', lmHead, { slidingWindow: 'limit-positions' });
      expect(decoderConfigFromHf(decoderConfigToHf(config), 'config.json', lmHead).config).toEqual(config);
    }
    const written = decoderConfigToHf(tinyDecoderConfig, { bosTokenId: 1, eosTokenId: 2 });
    expect(written).toMatchObject({ architectures: ['LlamaForCausalLM'], model_type: 'llama', tie_word_embeddings: true, bos_token_id: 1, eos_token_id: 2 });
    expect(decoderConfigFromHf(JSON.parse(JSON.stringify(written)), 'config.json', tinyDecoderConfig.heads).config).toEqual(tinyDecoderConfig);
    expect(decoderConfigToHf(tinyDecoderConfig, { architectures: ['LlamaForTokenClassification'] }).architectures).toEqual(['LlamaForTokenClassification']);
  });

  const rejections: Array<[string, unknown, RegExp]> = [
    ['a config that is not an object', [1], /the config is not a JSON object/],
    ['an unsupported model_type', { ...llama2Config, model_type: 'gemma' }, /model_type "gemma" is not supported/],
    ['a missing model_type', { ...llama2Config, model_type: undefined }, /field "model_type" is missing/],
    ['a missing hidden_size', { ...llama2Config, hidden_size: undefined }, /field "hidden_size" is missing/],
    ['a missing vocab_size', { ...llama2Config, vocab_size: null }, /field "vocab_size" is missing/],
    ['a missing rms_norm_eps', { ...llama2Config, rms_norm_eps: undefined }, /field "rms_norm_eps" is missing/],
    ['a fractional layer count', { ...llama2Config, num_hidden_layers: 2.5 }, /field "num_hidden_layers" must be a positive integer \(got 2.5\)/],
    ['rope_scaling', { ...llama2Config, rope_scaling: { type: 'linear', factor: 2 } }, /rope_scaling \{"type":"linear","factor":2\} is not supported/],
    ['llama3 rope_scaling', { ...llama2Config, rope_scaling: { rope_type: 'llama3', factor: 8 } }, /rope_scaling .*llama3.* is not supported/],
    ['another activation', { ...llama2Config, hidden_act: 'gelu' }, /hidden_act "gelu" is not supported/],
    ['MLP biases', { ...llama2Config, mlp_bias: true }, /mlp_bias true is not supported/],
    ['heads that do not divide the width', { ...llama2Config, num_attention_heads: 48, num_key_value_heads: 48 }, /headDim must be an even integer/],
    ['kv heads that do not divide the heads', { ...llama2Config, num_key_value_heads: 5 }, /numHeads \(32\) must be a multiple of numKvHeads \(5\)/],
  ];
  it.each(rejections)('rejects %s, naming config.json', (_, json, message) => {
    const error = loadError(json);
    expect(error.file).toBe('config.json');
    expect(error.message).toMatch(/^config\.json: /);
    expect(error.message).toMatch(message);
  });
});
