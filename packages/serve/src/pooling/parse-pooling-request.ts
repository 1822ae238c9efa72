import { HttpError } from '../http/http-error.js';

/** A `POST /pooling` request, checked: the prompts (text or token ids) and the options this server honours. */
export interface PoolingRequest {
  inputs: (string | number[])[];
  addSpecialTokens: boolean;
  useActivation: boolean;
  /** Keep only the last N tokens of each prompt (vLLM's `truncate_prompt_tokens`; -1: the model's length). */
  truncatePromptTokens: number | undefined;
}

/** The tasks a PRM's STEP pooler answers: `token_classify` now, `encode` or `reward` in older vLLM. */
const stepTasks = new Set(['token_classify', 'encode', 'reward']);

function badRequest(message: string): HttpError {
  return new HttpError(400, 'BadRequestError', message);
}

function isTokenIds(value: unknown): value is number[] {
  return Array.isArray(value) && value.length > 0 && value.every((item) => typeof item === 'number');
}

function inputsOf(input: unknown): (string | number[])[] {
  if (typeof input === 'string') return [input];
  if (isTokenIds(input)) return [input];
  if (Array.isArray(input) && input.length > 0 && (input.every((item) => typeof item === 'string') || input.every(isTokenIds))) {
    return input as (string | number[])[];
  }
  throw badRequest('"input" must be a string, a list of strings, a list of token ids, or a list of token-id lists (none of them empty)');
}

/**
 * Reads vLLM's pooling request (`PoolingCompletionRequest`). Chat-style `messages`, base64 output
 * and `dimensions` are refused with a message; a `model` other than the served one is vLLM's 404.
 */
export function parsePoolingRequest(body: unknown, servedModel: string): PoolingRequest {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw badRequest('expected a JSON object with "input"');
  const request = body as Record<string, unknown>;
  if (request.model !== undefined && request.model !== null && request.model !== servedModel) {
    throw new HttpError(404, 'NotFoundError', `The model \`${String(request.model)}\` does not exist.`);
  }
  if (request.messages !== undefined) {
    throw badRequest('chat-style pooling requests ("messages") are not supported here: render the prompt and send it as "input"');
  }
  if (request.encoding_format !== undefined && request.encoding_format !== 'float') {
    throw badRequest(`encoding_format ${JSON.stringify(request.encoding_format)} is not supported here; use "float"`);
  }
  if (request.dimensions !== undefined && request.dimensions !== null) throw badRequest('dimensions is currently not supported');
  if (request.task !== undefined && request.task !== null && !stepTasks.has(String(request.task))) {
    throw badRequest(`Unsupported task: ${JSON.stringify(request.task)} Supported tasks: ('token_classify',)`);
  }
  if (request.add_special_tokens !== undefined && typeof request.add_special_tokens !== 'boolean') throw badRequest('"add_special_tokens" must be a boolean');
  if (request.use_activation !== undefined && request.use_activation !== null && typeof request.use_activation !== 'boolean') {
    throw badRequest('"use_activation" must be a boolean or null');
  }
  const truncate = request.truncate_prompt_tokens;
  if (truncate !== undefined && truncate !== null && !(Number.isInteger(truncate) && (truncate as number) >= -1)) {
    throw badRequest('"truncate_prompt_tokens" must be an integer of at least -1');
  }
  return {
    inputs: inputsOf(request.input),
    addSpecialTokens: request.add_special_tokens !== false,
    useActivation: request.use_activation !== false,
    truncatePromptTokens: truncate === undefined || truncate === null ? undefined : (truncate as number),
  };
}
