import { type BackendV1, InvalidInputError } from '@reward-lens/spec';

import type { ReadingRecipe } from '../recipes/reading-recipe.js';
import { resolveRecipe } from '../recipes/resolve-recipe.js';
import type { StepBoundaryDetector, StepDelimiter } from '../segmenter/types.js';
import { createCharacterTokenizer, type PrmTokenizer } from '@reward-lens/tokenizers';
import { createConcurrencyLimit } from './concurrency-limit.js';
import { createRemoteBackend } from './remote-backend.js';
import { RemoteModelNotFoundError } from './remote-model-not-found-error.js';
import { RemoteResponseError } from './remote-response-error.js';
import { requestJson, type RemoteHttpSettings } from './request-json.js';
import { defaultRetryPolicy } from './retry-policy.js';
import { createVllmStepReader, type RemoteStepReader } from './vllm-step-reader.js';
import { servedModelsOf } from './vllm-pooling-protocol.js';

export interface VllmOptions {
  /** The served model name (vLLM's `--served-model-name`, by default the model path it was started with). */
  model: string;
  /** How the model is read: a preset name or a recipe that reads at a step tag (`qwen2.5-math-prm`, `math-shepherd`). */
  recipe: string | ReadingRecipe;
  /**
   * The model's tokenizer. With it, pairs are tokenized here and sent as token ids, so token
   * positions and counts in the results are the model's; without it, the rendered prompt is sent
   * as text and the server tokenizes it (positions then count characters).
   */
  tokenizer?: PrmTokenizer;
  /** Sent as `Authorization: Bearer <apiKey>` (vLLM's `--api-key`). */
  apiKey?: string;
  /** Extra HTTP headers on every request. */
  headers?: Record<string, string>;
  /** Per HTTP attempt, in milliseconds. Default 60 000. */
  timeoutMs?: number;
  /** Retries after a failed attempt (connection errors, 429, 503). Default 3. */
  retries?: number;
  /** Backoff bounds: the first retry waits up to `retryBaseDelayMs` (doubling each time), never more than `retryMaxDelayMs`. Defaults 250 and 10 000. */
  retryBaseDelayMs?: number;
  retryMaxDelayMs?: number;
  /** Requests in flight at once. Default 8. */
  concurrency?: number;
  /** Aborts connecting and every later request of this model. */
  signal?: AbortSignal;
  /** The fetch implementation. Default `globalThis.fetch`. */
  fetch?: typeof fetch;
  delimiter?: StepDelimiter;
  detector?: StepBoundaryDetector;
  /** Left truncation needs token ids, so only with `tokenizer`. */
  truncation?: 'none' | 'left';
}

export interface VllmConnection {
  backend: BackendV1;
  tokenizer: PrmTokenizer;
  recipe: ReadingRecipe;
  reader: RemoteStepReader;
  notes: string[];
}

/** `http://host:8000/v1/` and `http://host:8000` name the same server: vLLM's `/pooling` sits at the root. */
function serverRoot(baseUrl: string): string {
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    throw new InvalidInputError(`${JSON.stringify(baseUrl)} is not a URL (expected e.g. http://127.0.0.1:8000)`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new InvalidInputError(`${JSON.stringify(baseUrl)} is not an http(s) URL`);
  return `${url.origin}${url.pathname.replace(/\/+$/, '').replace(/\/v1$/, '')}`;
}

/** vLLM's STEP pooling reads the outputs at every step-tag token; only recipes that read there can run on it. */
function stepTagOf(recipe: ReadingRecipe): string {
  const readAt = recipe.readAt;
  if (readAt.at !== 'suffix' || readAt.tokenOffset !== 0 || recipe.tokenization !== 'whole') {
    throw new InvalidInputError(
      `recipe "${recipe.name}" does not read at a step tag; vLLM's STEP pooling returns rows at the step-tag token, so only recipes that read at a tag after each step (qwen2.5-math-prm, math-shepherd) run on vLLM`,
    );
  }
  if (recipe.activation === 'identity') {
    throw new InvalidInputError(`recipe "${recipe.name}" reads a raw value; vLLM applies softmax or sigmoid to what it pools`);
  }
  return readAt.text;
}

function positiveIntegerOption(name: string, value: number | undefined, fallback: number, minimum = 1): number {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value < minimum) throw new InvalidInputError(`${name} must be an integer of at least ${minimum}, got ${value}`);
  return value;
}

/**
 * Checks a vLLM server and the recipe, and builds what a ProcessRM on it needs: the stand-in
 * backend, the tokenizer (the model's, or the character stand-in), the reader and the notes.
 */
export async function connectVllm(baseUrl: string, options: VllmOptions): Promise<VllmConnection> {
  if (typeof options?.model !== 'string' || options.model === '') throw new InvalidInputError('fromVllm needs { model: <served model name> }');
  if (options.recipe === undefined) throw new InvalidInputError('fromVllm needs { recipe } (e.g. "qwen2.5-math-prm" or "math-shepherd")');
  const root = serverRoot(baseUrl);
  const recipe = resolveRecipe(options.recipe);
  const stepTag = stepTagOf(recipe);
  if (options.truncation === 'left' && !options.tokenizer) {
    throw new InvalidInputError("truncation 'left' needs the model's tokenizer (pass { tokenizer }): without it the server tokenizes");
  }
  const fetchImplementation = options.fetch ?? globalThis.fetch;
  if (typeof fetchImplementation !== 'function') throw new InvalidInputError('no fetch implementation: pass { fetch }');
  const http: RemoteHttpSettings = {
    fetch: fetchImplementation,
    headers: { ...(options.apiKey !== undefined ? { authorization: `Bearer ${options.apiKey}` } : {}), ...options.headers },
    timeoutMs: positiveIntegerOption('timeoutMs', options.timeoutMs, 60_000),
    retry: {
      retries: positiveIntegerOption('retries', options.retries, defaultRetryPolicy.retries, 0),
      baseDelayMs: positiveIntegerOption('retryBaseDelayMs', options.retryBaseDelayMs, defaultRetryPolicy.baseDelayMs, 0),
      maxDelayMs: positiveIntegerOption('retryMaxDelayMs', options.retryMaxDelayMs, defaultRetryPolicy.maxDelayMs, 0),
    },
    ...(options.signal ? { signal: options.signal } : {}),
  };

  const modelsUrl = `${root}/v1/models`;
  const served = servedModelsOf(await requestJson(modelsUrl, { method: 'GET' }, http));
  if (!served) throw new RemoteResponseError(modelsUrl, 'the body is not a model list ({ "data": [{ "id": ... }] })');
  const card = served.find((model) => model.id === options.model);
  if (!card)
    throw new RemoteModelNotFoundError(
      root,
      options.model,
      served.map((model) => model.id),
    );

  const tokenizer = options.tokenizer ?? createCharacterTokenizer(stepTag);
  const stepTagId = tokenizer.tokenToId(stepTag);
  if (stepTagId === undefined) throw new InvalidInputError(`tokenizer "${tokenizer.name}" does not have the step tag ${JSON.stringify(stepTag)} as one token`);
  const maxPositions = options.tokenizer && card.maxModelLength !== undefined ? card.maxModelLength : Number.MAX_SAFE_INTEGER;
  const rowWidth = recipe.activation === 'softmax' ? (recipe.columns?.length ?? headClasses(recipe)) : 1;
  const reader = createVllmStepReader({
    poolingUrl: `${root}/pooling`,
    model: options.model,
    recipe,
    stepTag,
    stepTagId,
    ...(options.tokenizer ? { serverStepTagId: stepTagId } : {}),
    sendTokenIds: options.tokenizer !== undefined,
    rowWidth,
    http,
    limit: createConcurrencyLimit(positiveIntegerOption('concurrency', options.concurrency, 8)),
  });
  const description = `vLLM at ${root}, model ${JSON.stringify(options.model)}${card.maxModelLength !== undefined ? ` (max_model_len ${card.maxModelLength})` : ''}`;
  const notes = [
    `remote engine: ${description}; steps read with STEP pooling at ${JSON.stringify(stepTag)}, P(positive) = row[${recipe.activation === 'softmax' ? recipe.positiveIndex : 0}]`,
    options.tokenizer
      ? `tokenized here with "${tokenizer.name}" and sent as token ids`
      : 'the server tokenizes the rendered prompt: token positions and counts in these results are characters of that prompt',
  ];
  const backend = createRemoteBackend({ name: 'vllm', description, recipe, vocabSize: tokenizer.vocabSize, maxPositions });
  return { backend, tokenizer, recipe, reader, notes };
}

function headClasses(recipe: ReadingRecipe): number {
  const head = recipe.heads.find((candidate) => candidate.name === recipe.head);
  return head?.kind === 'token-classification' ? head.numLabels : 2;
}
