import { ModelLoadError, type HeadKindV1 } from '@reward-lens/spec';

/** A head as the backend needs to know it; a `HeadSpec` of a `DecoderConfig` fits. */
export interface OnnxHeadConfig {
  name: string;
  kind: HeadKindV1;
  /** Classes of a token-classification head. */
  numLabels?: number;
  /** The graph output computing it, when its name does not follow the naming of `@reward-lens/onnx-export`. */
  output?: string;
}

/**
 * Facts about the model that a graph's inputs and outputs do not show (its vocabulary, its
 * positions, its heads' names). A `DecoderConfig` fits; every field is optional and
 * overrides what the `config.json` beside the model says.
 */
export interface OnnxModelConfig {
  architecture?: string;
  vocabSize?: number;
  hiddenSize?: number;
  numLayers?: number;
  maxPositions?: number;
  /** Attention (query) heads: how much memory a run's attention takes, to split large batches (see `maxRunBytes`). */
  numHeads?: number;
  /** Key/value heads and head size: needed only for a graph with a cache whose inputs leave them dynamic. */
  numKvHeads?: number;
  headDim?: number;
  heads?: readonly OnnxHeadConfig[];
}

/**
 * The model facts in a Hugging Face `config.json` (the text of the file beside a model, which the
 * runtime package reads): the fields the backend needs, and the heads `@reward-lens/onnx-export`
 * records under `reward_lens.onnx_heads`. Invalid JSON is a ModelLoadError naming `file`.
 */
export function parseOnnxConfigJson(text: string, file: string): OnnxModelConfig {
  let json: Record<string, unknown>;
  try {
    json = JSON.parse(text) as Record<string, unknown>;
  } catch (error) {
    throw new ModelLoadError(`not valid JSON (${(error as Error).message})`, { file, cause: error });
  }
  if (typeof json !== 'object' || json === null || Array.isArray(json)) throw new ModelLoadError('not a JSON object', { file });
  const integer = (key: string) => (Number.isSafeInteger(json[key]) && (json[key] as number) > 0 ? (json[key] as number) : undefined);
  const config: OnnxModelConfig = {};
  if (typeof json.model_type === 'string') config.architecture = json.model_type;
  const fields = {
    vocabSize: 'vocab_size',
    hiddenSize: 'hidden_size',
    numLayers: 'num_hidden_layers',
    maxPositions: 'max_position_embeddings',
    numHeads: 'num_attention_heads',
    numKvHeads: 'num_key_value_heads',
    headDim: 'head_dim',
  } as const;
  for (const [key, field] of Object.entries(fields) as [keyof typeof fields, string][]) {
    const value = integer(field);
    if (value !== undefined) config[key] = value;
  }
  const recorded = (json.reward_lens as { onnx_heads?: unknown } | undefined)?.onnx_heads;
  if (Array.isArray(recorded)) config.heads = recorded.filter(isHeadConfig);
  return config;
}

function isHeadConfig(value: unknown): value is OnnxHeadConfig {
  if (typeof value !== 'object' || value === null) return false;
  const head = value as Record<string, unknown>;
  return typeof head.name === 'string' && (head.kind === 'lm' || head.kind === 'value' || head.kind === 'token-classification');
}

/** Options win over the file, field by field. */
export function mergeConfigs(fromFile: OnnxModelConfig, fromOptions: OnnxModelConfig | undefined): OnnxModelConfig {
  const merged: OnnxModelConfig = { ...fromFile };
  for (const [key, value] of Object.entries(fromOptions ?? {})) if (value !== undefined) (merged as Record<string, unknown>)[key] = value;
  return merged;
}
