import { InvalidInputError, type GenerateOptions, type Generation, type StopReason, type TextGenerator } from '@reward-lens/core';
import { AttemptFailure } from '../http/attempt-failure.js';
import { ConcurrencyLimit } from '../http/concurrency-limit.js';
import { remoteHttpSettings, type RemoteClientOptions } from '../http/remote-client-options.js';
import { readJsonBody, send } from '../http/request-json.js';
import { type RemoteHttpSettings, withRetries } from '../http/with-retries.js';
import { serverSentData } from './server-sent-events.js';

export interface OpenAICompletionsOptions extends RemoteClientOptions {
  /** The server's API root, e.g. `http://127.0.0.1:8000/v1` (a bare origin gets `/v1`). */
  baseURL: string;
  /** The served model's name; default: the first one `GET /models` lists. */
  model?: string;
  /** Stream the tokens (server-sent events); `timeoutMs` is then the wait for each chunk. Default false. */
  stream?: boolean;
  /** Other body fields the server understands (`top_k`, `repetition_penalty`, ...). */
  extraBody?: Record<string, unknown>;
}

/** A generation that knows how many tokens it took when it cannot list them (the server reports a count). */
export type CountedGeneration = Generation & { completionTokens?: number };

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
  private readonly http: RemoteHttpSettings & { concurrency: number };
  private readonly limit: ConcurrencyLimit;
  private model: Promise<string> | undefined;

  constructor(options: OpenAICompletionsOptions) {
    this.root = apiRoot(options.baseURL);
    this.options = options;
    this.http = remoteHttpSettings(options);
    this.limit = new ConcurrencyLimit(this.http.concurrency);
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
    const { value, attempts } = await this.withRetries(`${this.root}/completions`, callOptions.signal, (signal, resetIdle) =>
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
    const url = `${this.root}/models`;
    this.model ??= this.withRetries(url, signal, async (attemptSignal) => {
      const json = (await readJsonBody(await send(url, { method: 'GET' }, this.http, attemptSignal))) as { data?: { id?: string }[] };
      const id = json.data?.[0]?.id;
      if (typeof id !== 'string') throw new AttemptFailure('response', 'lists no model; pass the model name', { retryable: false });
      return id;
    })
      .then(({ value }) => value)
      .catch((error: unknown) => {
        this.model = undefined;
        throw error;
      });
    return this.model;
  }

  private async postCompletion(body: object, stream: boolean, signal: AbortSignal, resetIdle: () => void): Promise<Omit<CompletionResult, 'attempts'>> {
    const response = await send(
      `${this.root}/completions`,
      { method: 'POST', body: JSON.stringify(body), ...(stream ? { accept: 'text/event-stream' } : {}) },
      this.http,
      signal,
    );
    if (!stream) {
      const json = (await readJsonBody(response)) as CompletionJson;
      const choice = json.choices?.[0];
      if (!choice || typeof choice.text !== 'string') throw new AttemptFailure('response', 'the response has no choices[0].text', { retryable: false });
      const usage = json.usage?.completion_tokens;
      return {
        text: choice.text,
        finishReason: choice.finish_reason ?? null,
        ...('stop_reason' in choice ? { stopReason: choice.stop_reason ?? null } : {}),
        completionTokens: usage ?? 0,
        tokensExact: usage !== undefined,
      };
    }
    if (!response.body) throw new AttemptFailure('response', 'the streamed response has no body', { retryable: true });
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
        if (json.error) throw new AttemptFailure('response', `the stream reported an error: ${json.error.message ?? 'unknown'}`, { retryable: false });
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
      throw new AttemptFailure('response', `the stream broke off (${describe(error)})`, { retryable: true, cause: error });
    }
    // A stream that ends without a finish reason or [DONE] was cut (the server died): retried whole.
    if (!finished && finishReason === null) throw new AttemptFailure('response', 'the stream ended before the completion finished', { retryable: true });
    return {
      text,
      finishReason,
      ...(stopReason !== undefined ? { stopReason } : {}),
      completionTokens: usage ?? chunks,
      tokensExact: usage !== undefined,
    };
  }

  /** Runs the attempts of one request in a concurrency slot, with the remote clients' retry policy. */
  private withRetries<Result>(
    url: string,
    signal: AbortSignal | undefined,
    attempt: (signal: AbortSignal, resetIdle: () => void) => Promise<Result>,
  ): Promise<{ value: Result; attempts: number }> {
    const settings = signal ? { ...this.http, signal } : this.http;
    return this.limit.run(() => withRetries(url, settings, attempt));
  }
}

function stopReasonOf(result: CompletionResult, stops: readonly string[]): StopReason {
  if (result.finishReason === 'length') return 'max-tokens';
  // vLLM says which stop ended it: a string (our stop), a token id, or null (EOS).
  if (result.stopReason !== undefined) return typeof result.stopReason === 'string' ? 'stop-string' : 'stop-token';
  // Other servers only say "stop": with stop strings asked for, read it as one (an EOS read so costs one more, empty, step).
  return stops.length > 0 ? 'stop-string' : 'stop-token';
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
