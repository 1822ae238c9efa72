import {
  capabilitiesOf,
  createCharacterTokenizer,
  InvalidInputError,
  resolveRecipe,
  type PrmTokenizer,
  type ReadingRecipe,
  type StepBoundaryDetector,
  type StepDelimiter,
  type StepScoreSource,
} from '@reward-lens/core';
import { ConcurrencyLimit } from '../http/concurrency-limit.js';
import { remoteHttpSettings, type RemoteClientOptions } from '../http/remote-client-options.js';
import { RemoteModelNotFoundError } from '../http/remote-model-not-found-error.js';
import { RemoteResponseError } from '../http/remote-response-error.js';
import { requestJson } from '../http/request-json.js';
import { servedModelsOf } from './vllm-pooling-protocol.js';
import { createVllmStepReader } from './vllm-step-reader.js';

export interface VllmOptions extends RemoteClientOptions {
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
  delimiter?: StepDelimiter;
  detector?: StepBoundaryDetector;
  /** Left truncation needs token ids, so only with `tokenizer`. */
  truncation?: 'none' | 'left';
}

export interface VllmConnection {
  /** The server as a score source: SCORES and STEP_SCORES, its max_model_len. */
  source: StepScoreSource;
  tokenizer: PrmTokenizer;
  recipe: ReadingRecipe;
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

/**
 * Checks a vLLM server and the recipe, and builds what a ProcessRM on it needs: the server as a
 * score source, the tokenizer (the model's, or the character stand-in) and the notes.
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
  const { concurrency, ...http } = remoteHttpSettings(options);

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
    limit: new ConcurrencyLimit(concurrency),
  });
  const description = `vLLM at ${root}, model ${JSON.stringify(options.model)}${card.maxModelLength !== undefined ? ` (max_model_len ${card.maxModelLength})` : ''}`;
  const notes = [
    `remote engine: ${description}; steps read with STEP pooling at ${JSON.stringify(stepTag)}, P(positive) = row[${recipe.activation === 'softmax' ? recipe.positiveIndex : 0}]`,
    options.tokenizer
      ? `tokenized here with "${tokenizer.name}" and sent as token ids`
      : 'the server tokenizes the rendered prompt: token positions and counts in these results are characters of that prompt',
  ];
  const source: StepScoreSource = {
    name: 'vllm',
    description,
    // The server returns activated rows at the step tags: scores, nothing else (no cache, activations or gradients).
    capabilities: capabilitiesOf('SCORES', 'STEP_SCORES'),
    // Not reported by the server; vLLM serves these models in bf16 unless told otherwise, the loosest of the three.
    precision: 'bf16',
    maxPositions,
    readScores: reader.readScores,
    async dispose() {},
  };
  return { source, tokenizer, recipe, notes };
}

function headClasses(recipe: ReadingRecipe): number {
  const head = recipe.heads.find((candidate) => candidate.name === recipe.head);
  return head?.kind === 'token-classification' ? head.numLabels : 2;
}
