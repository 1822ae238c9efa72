import { InvalidInputError, type GenerateOptions, type StopReason, type TextGenerator } from '@reward-lens/core';
import { CompletionsRequestError } from '../errors/completions-request-error.js';
import type { CountedGeneration } from '../policy/generator-policy.js';
import { ConcurrencyLimit } from './concurrency-limit.js';
import { backoffMs, retryAfterMs, sleep } from './retry-delay.js';
import { serverSentData } from './server-sent-events.js';

export interface OpenAICompletionsOptions {
  /** The server's API root, e.g. `http://127.0.0.1:8000/v1` (a bare origin gets `/v1`). */
  baseURL: string;
  /** The served model's name; default: the first one `GET /models` lists. */
  model?: string;
  apiKey?: string;
  headers?: Record<string, string>;
  /** Stream the tokens (server-sent events). Default false. */
  stream?: boolean;
  /** Per attempt: the whole request, or with streaming the wait for each chunk. Default 60 s. */
  timeoutMs?: number;
  /** Retries after the first attempt, for 408/409/429/5xx, timeouts and dropped connections. Default 4. */
  maxRetries?: number;
  /** First backoff; doubled per retry, with jitter. Default 500 ms. */
  initialRetryDelayMs?: number;
  /** Backoff cap. Default 8 s. */
  maxRetryDelayMs?: number;
  /** The longest `Retry-After` honoured; a server asking for more fails the request. Default 60 s. */
  maxRetryAfterMs?: number;
  /** Requests in flight at most. Default 8. */
  concurrency?: number;
  /** Other body fields the server understands (`top_k`, `repetition_penalty`, ...). */
  extraBody?: Record<string, unknown>;
  /** Injected for tests and other runtimes. */
  fetch?: typeof fetch;
  random?: () => number;
}

export interface CompletionRequest {
  prompt: string;
  maxTokens: number;
  temperature?: number;
  topP?: number;
  seed?: number;
  stop?: readonly string[];
}

export interface CompletionResult {
  text: string;
  /** The server's `finish_reason` (`stop`, `length`, ...). */
  finishReason: string | null;
  /** vLLM's `stop_reason`: the stop string matched, a stop token id, or null at EOS; undefined when the server does not say. */
  stopReason?: string | number | null;
  /** From `usage`; when a stream has no usage, the number of chunks that carried text. */
  completionTokens: number;
  /** Whether `completionTokens` came from the server's `usage`. */
  tokensExact: boolean;
  attempts: number;
}

/** Statuses worth retrying (as the OpenAI SDKs retry them). */
const retryableStatuses = new Set([408, 409, 429, 500, 502, 503, 504]);

class AttemptFailure extends Error {
  constructor(
    message: string,
    readonly retryable: boolean,
    readonly status: number | null,
    readonly waitMs: number | null = null,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

function apiRoot(baseURL: string): string {
  let url: URL;
  try {
    url = new URL(baseURL);
  } catch (error) {
    throw new InvalidInputError(`not a URL: ${JSON.stringify(baseURL)}`, { cause: error });
  }
  if (url.pathname === '/' || url.pathname === '') url.pathname = '/v1';
  return url.toString().replace(/\/$/, '');
}

interface ChoiceJson {
  text?: string;
  finish_reason?: string | null;
  stop_reason?: string | number | null;
}

interface CompletionJson {
  choices?: ChoiceJson[];
  usage?: { completion_tokens?: number } | null;
  error?: { message?: string };
}

/**
 * A client for `/v1/completions` as vLLM, llama.cpp's server, TGI and others expose it, usable as
 * a core `TextGenerator` (so as a search or labelling policy through `generatorPolicy`). Every
 * request has a timeout, is retried with exponential backoff and jitter on 408/409/429/5xx,
 * timeouts and dropped connections (a stream cut mid-way is retried whole), honours `Retry-After`,
 * and waits for one of `concurrency` slots. An `AbortSignal` stops it at once, retries included.
 *
 * @example
 * const client = createOpenAICompletionsClient({ baseURL: 'http://127.0.0.1:8000/v1', model: 'Qwen/Qwen2.5-Math-7B-Instruct' });
 * const policy = generatorPolicy(client, { concurrency: 8 });
 */
export class OpenAICompletionsClient implements TextGenerator {
  readonly root: string;
  private readonly options: OpenAICompletionsOptions;
  private readonly limit: ConcurrencyLimit;
  private model: Promise<string> | undefined;

  constructor(options: OpenAICompletionsOptions) {
    this.root = apiRoot(options.baseURL);
    this.options = options;
    this.limit = new ConcurrencyLimit(options.concurrency ?? 8);
    if (options.model !== undefined) this.model = Promise.resolve(options.model);
  }

  get concurrency(): number {
    return this.limit.limit;
  }

  /** One completion of one prompt. */
  async complete(request: CompletionRequest, callOptions: { signal?: AbortSignal } = {}): Promise<CompletionResult> {
    const model = await this.modelName(callOptions.signal);
    const stream = this.options.stream ?? false;
    const body = {
      ...this.options.extraBody,
      model,
      prompt: request.prompt,
      max_tokens: request.maxTokens,
      ...(request.temperature !== undefined ? { temperature: request.temperature } : {}),
      ...(request.topP !== undefined ? { top_p: request.topP } : {}),
      ...(request.seed !== undefined ? { seed: request.seed } : {}),
      ...(request.stop && request.stop.length > 0 ? { stop: [...request.stop] } : {}),
      ...(stream ? { stream: true, stream_options: { include_usage: true } } : {}),
    };
    const { value, attempts } = await this.withRetries('POST /completions', callOptions.signal, (signal, resetIdle) =>
      this.postCompletion(body, stream, signal, resetIdle),
    );
    return { ...value, attempts };
  }

  /** `TextGenerator`: each prompt is one request (run concurrently up to the limit). Token ids are not known remotely: `tokenIds` is empty and `completionTokens` counts them. */
  async generate(prompts: readonly string[], options: Partial<GenerateOptions> & { signal?: AbortSignal } = {}): Promise<CountedGeneration[]> {
    const stops = options.stop ?? [];
    return Promise.all(
      prompts.map(async (prompt) => {
        const result = await this.complete(
          {
            prompt,
            maxTokens: options.maxTokens ?? 256,
            temperature: options.temperature ?? 0,
            ...(options.topP !== undefined ? { topP: options.topP } : {}),
            ...(options.seed !== undefined ? { seed: options.seed } : {}),
            stop: stops,
          },
          options.signal ? { signal: options.signal } : {},
        );
        return {
          prompt,
          text: result.text,
          fullText: prompt + result.text,
          tokenIds: [],
          stopReason: stopReasonOf(result, stops),
          completionTokens: result.completionTokens,
        };
      }),
    );
  }

  private modelName(signal: AbortSignal | undefined): Promise<string> {
    this.model ??= this.withRetries('GET /models', signal, async (attemptSignal) => {
      const response = await this.send(`${this.root}/models`, { method: 'GET', signal: attemptSignal });
      const json = (await readJson(response)) as { data?: { id?: string }[] };
      const id = json.data?.[0]?.id;
      if (typeof id !== 'string') throw new AttemptFailure(`GET ${this.root}/models lists no model; pass the model name`, false, response.status);
      return id;
    })
      .then(({ value }) => value)
      .catch((error: unknown) => {
        this.model = undefined;
        throw error;
      });
    return this.model;
  }

  private headers(): Record<string, string> {
    return {
      'content-type': 'application/json',
      ...(this.options.apiKey ? { authorization: `Bearer ${this.options.apiKey}` } : {}),
      ...this.options.headers,
    };
  }

  /** One HTTP exchange: a response with an OK status, or an AttemptFailure saying whether to retry. */
  private async send(url: string, init: { method: string; body?: string; signal: AbortSignal }): Promise<Response> {
    let response: Response;
    try {
      response = await (this.options.fetch ?? fetch)(url, { ...init, headers: this.headers() });
    } catch (error) {
      if (init.signal.aborted) throw init.signal.reason;
      throw new AttemptFailure(`connection failed: ${describe(error)}`, true, null, null, { cause: error });
    }
    if (response.ok) return response;
    const text = await response.text().catch(() => '');
    const detail = safeErrorMessage(text);
    throw new AttemptFailure(
      `HTTP ${response.status}${detail ? `: ${detail}` : ''}`,
      retryableStatuses.has(response.status),
      response.status,
      retryAfterMs(response.headers),
    );
  }

  private async postCompletion(body: object, stream: boolean, signal: AbortSignal, resetIdle: () => void): Promise<Omit<CompletionResult, 'attempts'>> {
    const response = await this.send(`${this.root}/completions`, { method: 'POST', body: JSON.stringify(body), signal });
    if (!stream) {
      const json = (await readJson(response)) as CompletionJson;
      const choice = json.choices?.[0];
      if (!choice || typeof choice.text !== 'string') throw new AttemptFailure(`the response has no choices[0].text`, false, response.status);
      const usage = json.usage?.completion_tokens;
      return {
        text: choice.text,
        finishReason: choice.finish_reason ?? null,
        ...('stop_reason' in choice ? { stopReason: choice.stop_reason ?? null } : {}),
        completionTokens: usage ?? 0,
        tokensExact: usage !== undefined,
      };
    }
    if (!response.body) throw new AttemptFailure('the streamed response has no body', true, response.status);
    let text = '';
    let finishReason: string | null = null;
    let stopReason: string | number | null | undefined;
    let chunks = 0;
    let usage: number | undefined;
    let finished = false;
    try {
      for await (const data of serverSentData(response.body, resetIdle)) {
        if (data.trim() === '[DONE]') {
          finished = true;
          break;
        }
        const json = JSON.parse(data) as CompletionJson;
        if (json.error) throw new AttemptFailure(`the stream reported an error: ${json.error.message ?? 'unknown'}`, false, response.status);
        const choice = json.choices?.[0];
        if (choice?.text) {
          text += choice.text;
          chunks++;
        }
        if (choice?.finish_reason) finishReason = choice.finish_reason;
        if (choice && 'stop_reason' in choice) stopReason = choice.stop_reason ?? null;
        if (json.usage?.completion_tokens !== undefined) usage = json.usage.completion_tokens;
      }
    } catch (error) {
      if (error instanceof AttemptFailure) throw error;
      if (signal.aborted) throw signal.reason;
      throw new AttemptFailure(`the stream broke off: ${describe(error)}`, true, response.status, null, { cause: error });
    }
    // A stream that ends without a finish reason or [DONE] was cut (the server died): retried whole.
    if (!finished && finishReason === null) throw new AttemptFailure('the stream ended before the completion finished', true, response.status);
    return {
      text,
      finishReason,
      ...(stopReason !== undefined ? { stopReason } : {}),
      completionTokens: usage ?? chunks,
      tokensExact: usage !== undefined,
    };
  }

  /** Runs attempts in a concurrency slot, each with its timeout, retrying what is retryable. */
  private async withRetries<Result>(
    what: string,
    signal: AbortSignal | undefined,
    attempt: (signal: AbortSignal, resetIdle: () => void) => Promise<Result>,
  ): Promise<{ value: Result; attempts: number }> {
    const maxRetries = this.options.maxRetries ?? 4;
    const timeoutMs = this.options.timeoutMs ?? 60_000;
    return this.limit.run(async () => {
      let last: AttemptFailure | undefined;
      let attempts = 0;
      for (let attemptIndex = 0; attemptIndex <= maxRetries; attemptIndex++) {
        if (signal?.aborted) throw signal.reason;
        attempts = attemptIndex + 1;
        const controller = new AbortController();
        const onAbort = () => controller.abort(signal!.reason);
        signal?.addEventListener('abort', onAbort, { once: true });
        let timer: ReturnType<typeof setTimeout> | undefined;
        const resetIdle = () => {
          clearTimeout(timer);
          timer = setTimeout(() => controller.abort(new AttemptFailure(`no response within ${timeoutMs} ms`, true, null)), timeoutMs);
        };
        resetIdle();
        try {
          return { value: await attempt(controller.signal, resetIdle), attempts };
        } catch (error) {
          if (signal?.aborted) throw signal.reason;
          const failure =
            error instanceof AttemptFailure
              ? error
              : controller.signal.aborted && controller.signal.reason instanceof AttemptFailure
                ? controller.signal.reason
                : new AttemptFailure(describe(error), false, null, null, { cause: error });
          last = failure;
          if (!failure.retryable || attemptIndex === maxRetries) break;
          const asked = failure.waitMs;
          const maxRetryAfterMs = this.options.maxRetryAfterMs ?? 60_000;
          if (asked !== null && asked > maxRetryAfterMs) {
            throw new CompletionsRequestError(
              `${what} to ${this.root}: ${failure.message}; the server asks to retry after ${Math.ceil(asked / 1000)} s, more than the ${maxRetryAfterMs / 1000} s allowed`,
              {
                status: failure.status,
                attempts: attemptIndex + 1,
                cause: failure,
              },
            );
          }
          const wait =
            asked ??
            backoffMs(attemptIndex, {
              initialMs: this.options.initialRetryDelayMs ?? 500,
              maxMs: this.options.maxRetryDelayMs ?? 8000,
              random: this.options.random ?? Math.random,
            });
          await sleep(wait, signal);
        } finally {
          clearTimeout(timer);
          signal?.removeEventListener('abort', onAbort);
        }
      }
      throw new CompletionsRequestError(
        `${what} to ${this.root} failed after ${attempts} attempt${attempts === 1 ? '' : 's'}: ${last?.message ?? 'unknown error'}`,
        {
          status: last?.status ?? null,
          attempts,
          cause: last,
        },
      );
    });
  }
}

function stopReasonOf(result: CompletionResult, stops: readonly string[]): StopReason {
  if (result.finishReason === 'length') return 'max-tokens';
  // vLLM says which stop ended it: a string (our stop), a token id, or null (EOS).
  if (result.stopReason !== undefined) return typeof result.stopReason === 'string' ? 'stop-string' : 'stop-token';
  // Other servers only say "stop": with stop strings asked for, read it as one (an EOS read so costs one more, empty, step).
  return stops.length > 0 ? 'stop-string' : 'stop-token';
}

async function readJson(response: Response): Promise<unknown> {
  let text: string;
  try {
    text = await response.text();
  } catch (error) {
    throw new AttemptFailure(`the response broke off: ${describe(error)}`, true, response.status, null, { cause: error });
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new AttemptFailure(`the response is not JSON: ${text.slice(0, 120)}`, false, response.status, null, { cause: error });
  }
}

function safeErrorMessage(text: string): string {
  try {
    const json = JSON.parse(text) as { error?: { message?: string } | string; message?: string; detail?: string };
    const message = typeof json.error === 'string' ? json.error : (json.error?.message ?? json.message ?? json.detail);
    if (typeof message === 'string') return message.slice(0, 300);
  } catch {
    // not JSON: the text itself
  }
  return text.trim().slice(0, 300);
}

function describe(error: unknown): string {
  if (error instanceof Error) {
    const cause = error.cause instanceof Error ? ` (${error.cause.message})` : '';
    return `${error.message}${cause}`;
  }
  return String(error);
}

/** A client for an OpenAI-compatible `/v1/completions` server (see `OpenAICompletionsClient`). */
export function createOpenAICompletionsClient(options: OpenAICompletionsOptions): OpenAICompletionsClient {
  return new OpenAICompletionsClient(options);
}
