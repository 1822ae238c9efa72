/**
 * vLLM's Pooling API (`POST /pooling`), its model list (`GET /v1/models`) and its error body, as
 * vLLM defines them: `PoolingCompletionRequest`, `PoolingResponse` and `PoolingResponseData` in
 * `vllm/entrypoints/pooling/pooling/protocol.py` (the `input` and `add_special_tokens` fields in
 * `vllm/entrypoints/pooling/base/protocol.py`), `UsageInfo`, `ModelCard` and `ErrorResponse` in
 * `vllm/entrypoints/openai/engine/protocol.py`. Only the fields a process reward model uses are
 * typed; vLLM accepts and ignores others.
 *
 * A PRM served with STEP pooling returns, per input, one row per step-tag token (`step_tag_id`),
 * each row the softmax over the head's classes or over `returned_token_ids`.
 */
export interface VllmPoolingRequest {
  /** The served model name (`--served-model-name`); vLLM answers 404 for another. */
  model?: string | null;
  /** A prompt, several prompts, one token-id list or several. */
  input: string | string[] | number[] | number[][];
  /** Default true: the tokenizer adds its special tokens (BOS) to a text prompt. */
  add_special_tokens?: boolean;
  /** Apply the pooler's activation (softmax over two or more outputs, sigmoid over one). Default: the pooler's own (true). */
  use_activation?: boolean | null;
  encoding_format?: 'float' | 'base64';
  truncate_prompt_tokens?: number | null;
  /** The pooling task; a PRM's default is `token_classify` (`encode` or `reward` in older vLLM). */
  task?: string | null;
  user?: string | null;
}

export interface VllmPoolingResponseData {
  index: number;
  object: 'pooling';
  /** Float encoding: per step tag a row (`number[][]`); a 1-D list for sequence-level pooling. */
  data: number[][] | number[] | string;
}

export interface VllmUsageInfo {
  prompt_tokens: number;
  total_tokens: number;
  completion_tokens: number | null;
  prompt_tokens_details: { cached_tokens: number | null } | null;
}

export interface VllmPoolingResponse {
  /** `pool-<uuid>`, or the request id. */
  id: string;
  object: 'list';
  created: number;
  model: string;
  data: VllmPoolingResponseData[];
  usage: VllmUsageInfo;
}

export interface VllmModelCard {
  id: string;
  object: 'model';
  created: number;
  owned_by: string;
  root: string | null;
  parent: string | null;
  max_model_len: number | null;
  permission: unknown[];
}

export interface VllmModelList {
  object: 'list';
  data: VllmModelCard[];
}

/** vLLM's error body. Older versions sent the fields flat: `{ object: 'error', message, type, param, code }`. */
export interface VllmErrorResponse {
  error: { message: string; type: string; param: string | null; code: number };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The model names a `GET /v1/models` body lists, with their context lengths; undefined when it is not that shape. */
export function servedModelsOf(body: unknown): { id: string; maxModelLength: number | undefined }[] | undefined {
  if (!isRecord(body) || !Array.isArray(body.data)) return undefined;
  const models: { id: string; maxModelLength: number | undefined }[] = [];
  for (const card of body.data) {
    if (!isRecord(card) || typeof card.id !== 'string') return undefined;
    models.push({ id: card.id, maxModelLength: typeof card.max_model_len === 'number' ? card.max_model_len : undefined });
  }
  return models;
}

/** Why a pooling response could not be read, in words; the caller adds where it came from. */
export type PoolingRowsResult = { rows: number[][][]; promptTokens: number | undefined } | { problem: string };

/**
 * Per input (in input order, by `index`), the rows of a float-encoded pooling response. A 1-D
 * `data` (sequence-level pooling, one vector per input) or a base64 string is a problem: a PRM
 * served with STEP pooling returns a 2-D list per input.
 */
export function poolingRowsOf(body: unknown, inputCount: number): PoolingRowsResult {
  if (!isRecord(body) || !Array.isArray(body.data)) return { problem: 'the body is not a pooling response (no "data" list)' };
  if (body.data.length !== inputCount) return { problem: `"data" has ${body.data.length} entries for ${inputCount} input(s)` };
  const rows: number[][][] = new Array(inputCount);
  for (const entry of body.data) {
    if (!isRecord(entry) || typeof entry.index !== 'number' || !Number.isInteger(entry.index) || entry.index < 0 || entry.index >= inputCount) {
      return { problem: 'a "data" entry has no valid "index"' };
    }
    if (rows[entry.index] !== undefined) return { problem: `"data" lists index ${entry.index} twice` };
    const data = entry.data;
    if (typeof data === 'string') return { problem: 'the data is base64-encoded; ask for encoding_format "float"' };
    if (!Array.isArray(data)) return { problem: `data ${entry.index} is not a list` };
    if (data.length > 0 && !Array.isArray(data[0])) {
      return { problem: `data ${entry.index} is a 1-D list of ${data.length} values, not one row per step tag: is the model served with STEP pooling?` };
    }
    for (const row of data) {
      if (!Array.isArray(row) || !row.every((value) => typeof value === 'number' && Number.isFinite(value))) {
        return { problem: `data ${entry.index} holds a row that is not a list of finite numbers` };
      }
    }
    rows[entry.index] = data as number[][];
  }
  const usage = isRecord(body.usage) && typeof body.usage.prompt_tokens === 'number' ? body.usage.prompt_tokens : undefined;
  return { rows, promptTokens: usage };
}
