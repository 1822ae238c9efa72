import { ModelLoadError, defineDecoderConfig, type DecoderArchitecture, type DecoderConfig, type HeadSpec } from '@reward-lens/spec';

export interface DecoderConfigFromHf {
  config: DecoderConfig;
  /** What the config asks for that reward-lens does differently (positions limited to a sliding window). */
  notes: string[];
}

export interface DecoderConfigFromHfOptions {
  /**
   * A sliding window shorter than the model's positions (Mistral's 4096 of 32768): reward-lens
   * attends over every earlier position, which is exact only up to the window. `refuse` (default)
   * throws a ModelLoadError naming the file and `sliding_window`; `limit-positions` loads the
   * model with its positions limited to the window, so every sequence it accepts is computed
   * exactly and a longer one is refused as too long (or cut with `truncation: 'left'`).
   */
  slidingWindow?: 'refuse' | 'limit-positions';
}

export interface DecoderConfigToHfOptions {
  /** Defaults to `["<Family>ForCausalLM"]`, e.g. `["LlamaForCausalLM"]`. */
  architectures?: string[];
  bosTokenId?: number;
  eosTokenId?: number;
}

const familyNames: Record<DecoderArchitecture, string> = { llama: 'Llama', mistral: 'Mistral', qwen2: 'Qwen2' };

/**
 * Reads a Hugging Face `config.json` (already parsed) for a Llama, Mistral or Qwen2 model.
 * Heads are not in `config.json` in a form reward-lens can use, so the caller names them.
 * Defaults are those of transformers' `LlamaConfig`, `MistralConfig` and `Qwen2Config`.
 *
 * @example
 * const { config, notes } = decoderConfigFromHf(JSON.parse(text), 'config.json', [{ name: 'lm', kind: 'lm' }]);
 */
export function decoderConfigFromHf(json: unknown, fileName: string, heads: HeadSpec[], options: DecoderConfigFromHfOptions = {}): DecoderConfigFromHf {
  const fail = (message: string, setting?: string): never => {
    throw new ModelLoadError(message, { file: fileName, ...(setting ? { setting } : {}) });
  };
  if (typeof json !== 'object' || json === null || Array.isArray(json)) fail('the config is not a JSON object');
  const fields = json as Record<string, unknown>;
  const present = (key: string) => fields[key] !== undefined && fields[key] !== null;
  const positiveInteger = (key: string): number => {
    if (!present(key)) fail(`field "${key}" is missing`);
    const value = fields[key];
    if (!Number.isSafeInteger(value) || (value as number) < 1) fail(`field "${key}" must be a positive integer (got ${JSON.stringify(value)})`);
    return value as number;
  };
  const positiveNumber = (key: string, fallback?: number): number => {
    if (!present(key)) return fallback ?? fail(`field "${key}" is missing`);
    const value = fields[key];
    if (typeof value !== 'number' || !(value > 0)) fail(`field "${key}" must be a positive number (got ${JSON.stringify(value)})`);
    return value as number;
  };
  const flag = (key: string, fallback: boolean): boolean => {
    if (!present(key)) return fallback;
    if (typeof fields[key] !== 'boolean') fail(`field "${key}" must be true or false (got ${JSON.stringify(fields[key])})`);
    return fields[key] as boolean;
  };

  const modelType = fields.model_type;
  if (typeof modelType !== 'string') fail('field "model_type" is missing');
  if (!(modelType === 'llama' || modelType === 'mistral' || modelType === 'qwen2')) {
    fail(`model_type "${String(modelType)}" is not supported (llama, mistral and qwen2 are)`);
  }
  const architecture = modelType as DecoderArchitecture;
  if (present('hidden_act') && fields.hidden_act !== 'silu') fail(`hidden_act ${JSON.stringify(fields.hidden_act)} is not supported (only "silu" is)`);
  if (flag('mlp_bias', false)) fail('mlp_bias true is not supported');
  checkRopeScaling(fields.rope_scaling, 'rope_scaling', fail);
  const ropeTheta = readRopeTheta(fields, fail) ?? positiveNumber('rope_theta', 10000);

  const numHeads = positiveInteger('num_attention_heads');
  let maxPositions = positiveInteger('max_position_embeddings');
  const notes: string[] = [];
  const slidingWindow = fields.sliding_window;
  // Mistral applies its window whenever one is set; Qwen2 only with use_sliding_window.
  const windowInUse = flag('use_sliding_window', architecture !== 'qwen2');
  if (typeof slidingWindow === 'number' && windowInUse && slidingWindow < maxPositions) {
    if (options.slidingWindow !== 'limit-positions') {
      fail(
        `sliding_window ${slidingWindow} is in use (shorter than max_position_embeddings ${maxPositions}) and is not supported: reward-lens attends ` +
          `over every earlier position, which is this model only on sequences of at most ${slidingWindow} tokens; ` +
          `load it with { slidingWindow: 'limit-positions' } to accept only such sequences`,
        'sliding_window',
      );
    }
    maxPositions = slidingWindow;
    notes.push(
      `positions limited to sliding_window ${slidingWindow} (of max_position_embeddings ${positiveInteger('max_position_embeddings')}): ` +
        'reward-lens attends over every earlier position, which is this model exactly up to the window; longer sequences are refused',
    );
  }
  try {
    const config = defineDecoderConfig({
      architecture,
      hiddenSize: positiveInteger('hidden_size'),
      numLayers: positiveInteger('num_hidden_layers'),
      numHeads,
      numKvHeads: present('num_key_value_heads') ? positiveInteger('num_key_value_heads') : numHeads,
      ...(present('head_dim') ? { headDim: positiveInteger('head_dim') } : {}),
      intermediateSize: positiveInteger('intermediate_size'),
      vocabSize: positiveInteger('vocab_size'),
      maxPositions,
      ropeTheta,
      rmsNormEps: positiveNumber('rms_norm_eps'),
      tieWordEmbeddings: flag('tie_word_embeddings', false),
      // transformers' Qwen2 always has q/k/v biases; Llama reads attention_bias; Mistral has none.
      attentionBias: flag('attention_bias', architecture === 'qwen2'),
      heads,
    });
    return { config, notes };
  } catch (error) {
    if (ModelLoadError.isInstance(error)) throw error;
    throw new ModelLoadError((error as Error).message, { file: fileName, cause: error });
  }
}

/** `rope_scaling` may be absent, null or the "default" type; any real scaling changes the positions. */
function checkRopeScaling(value: unknown, key: string, fail: (message: string, setting?: string) => never): void {
  if (value === undefined || value === null) return;
  const type = typeof value === 'object' ? ((value as Record<string, unknown>).rope_type ?? (value as Record<string, unknown>).type) : undefined;
  if (type === 'default') return;
  fail(`${key} ${JSON.stringify(value)} is not supported (reward-lens implements plain RoPE only)`, key);
}

/** Newer transformers write `rope_parameters: { rope_type, rope_theta }` instead of `rope_theta`. */
function readRopeTheta(fields: Record<string, unknown>, fail: (message: string, setting?: string) => never): number | undefined {
  const parameters = fields.rope_parameters;
  if (parameters === undefined || parameters === null) return undefined;
  checkRopeScaling(parameters, 'rope_parameters', fail);
  const theta = (parameters as Record<string, unknown>).rope_theta;
  if (theta === undefined) return undefined;
  if (typeof theta !== 'number' || !(theta > 0)) fail(`rope_parameters.rope_theta must be a positive number (got ${JSON.stringify(theta)})`);
  return theta as number;
}

/**
 * The `config.json` object for a config: the inverse of `decoderConfigFromHf` (heads aside,
 * which the caller names again when loading).
 */
export function decoderConfigToHf(config: DecoderConfig, options: DecoderConfigToHfOptions = {}): Record<string, unknown> {
  const family = familyNames[config.architecture];
  const json: Record<string, unknown> = {
    architectures: options.architectures ?? [`${family}ForCausalLM`],
    model_type: config.architecture,
    hidden_size: config.hiddenSize,
    intermediate_size: config.intermediateSize,
    num_hidden_layers: config.numLayers,
    num_attention_heads: config.numHeads,
    num_key_value_heads: config.numKvHeads,
    head_dim: config.headDim,
    hidden_act: 'silu',
    max_position_embeddings: config.maxPositions,
    rms_norm_eps: config.rmsNormEps,
    rope_theta: config.ropeTheta,
    rope_scaling: null,
    attention_bias: config.attentionBias,
    tie_word_embeddings: config.tieWordEmbeddings,
    vocab_size: config.vocabSize,
    torch_dtype: 'float32',
  };
  if (options.bosTokenId !== undefined) json.bos_token_id = options.bosTokenId;
  if (options.eosTokenId !== undefined) json.eos_token_id = options.eosTokenId;
  if (config.architecture === 'mistral') json.sliding_window = null;
  if (config.architecture === 'qwen2') json.use_sliding_window = false;
  return json;
}
