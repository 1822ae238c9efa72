import { afterEach, describe, expect, it } from 'vitest';
import { RemoteResponseError } from '../http/remote-response-error.js';
import { startCompletionsTestServer, type CompletionsTestServer, type ServerBehaviour } from '../testing/completions-test-server.js';
import { createOpenAICompletionsClient } from './openai-completions-client.js';

let server: CompletionsTestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function serve(script: (index: number) => ServerBehaviour) {
  server = await startCompletionsTestServer((_, index) => script(index));
  return server;
}

const fast = { retryBaseDelayMs: 20, retryMaxDelayMs: 200, random: () => 0 } as const;

describe.each([false, true])('OpenAI completions client (stream: %s)', (stream) => {
  it('sends the request as the API defines it and reads the completion, its finish reason and token count', async () => {
    const { baseURL, requests } = await serve(() => ({ kind: 'complete', text: ' 3 + 4 = 7.', stopReason: '\n', completionTokens: 6 }));
    const client = createOpenAICompletionsClient({ baseURL, stream, apiKey: 'secret' });
    const result = await client.complete({ prompt: 'Add 3 and 4.\n', maxTokens: 32, temperature: 0.7, topP: 0.9, seed: 11, stop: ['\n'] });
    expect(result).toEqual({ text: ' 3 + 4 = 7.', finishReason: 'stop', stopReason: '\n', completionTokens: 6, tokensExact: true, attempts: 1 });
    expect(requests[0]).toMatchObject({ model: 'test-model', prompt: 'Add 3 and 4.\n', max_tokens: 32, temperature: 0.7, top_p: 0.9, seed: 11, stop: ['\n'] });
    expect(requests[0]!.stream === true).toBe(stream);
  });

  it('retries a server that dies mid-request and returns the whole completion, not the part', async () => {
    const { requests } = await serve((index) =>
      index === 0 ? { kind: 'die-mid-request', partialText: 'The ans' } : { kind: 'complete', text: 'The answer is 7.' },
    );
    const client = createOpenAICompletionsClient({ baseURL: server!.baseURL, model: 'm', stream, ...fast });
    const result = await client.complete({ prompt: 'p', maxTokens: 8 });
    expect(result.text).toBe('The answer is 7.');
    expect(result.attempts).toBe(2);
    expect(requests).toHaveLength(2);
  });

  it('gives up on a server that keeps dying, with a typed error after every attempt', async () => {
    await serve(() => ({ kind: 'die-mid-request', partialText: 'x' }));
    const client = createOpenAICompletionsClient({ baseURL: server!.baseURL, model: 'm', stream, retries: 2, ...fast });
    const error = await client.complete({ prompt: 'p', maxTokens: 8 }).catch((caught: unknown) => caught);
    expect(RemoteResponseError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ code: 'REMOTE_RESPONSE', attempts: 3, url: `${server!.baseURL}/completions` });
    expect(server!.requests).toHaveLength(3);
  });
});

describe('OpenAI completions client: failures and limits', () => {
  it('times out a request that never answers, and retries it', async () => {
    await serve((index) => (index === 0 ? { kind: 'hang' } : { kind: 'complete', text: 'ok' }));
    const client = createOpenAICompletionsClient({ baseURL: server!.baseURL, model: 'm', timeoutMs: 150, ...fast });
    const started = performance.now();
    const result = await client.complete({ prompt: 'p', maxTokens: 8 });
    expect(result).toMatchObject({ text: 'ok', attempts: 2 });
    expect(performance.now() - started).toBeGreaterThanOrEqual(140);
  });

  it('fails with a timeout when every attempt hangs', async () => {
    await serve(() => ({ kind: 'hang' }));
    const client = createOpenAICompletionsClient({ baseURL: server!.baseURL, model: 'm', timeoutMs: 80, retries: 1, ...fast });
    const error = await client.complete({ prompt: 'p', maxTokens: 8 }).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: 'REMOTE_TIMEOUT', attempts: 2, timeoutMs: 80 });
    expect((error as Error).message).toMatch(/gave no answer within 80 ms in 2 attempts/);
  });

  it("honours a 429's Retry-After before retrying", async () => {
    await serve((index) => (index === 0 ? { kind: 'status', status: 429, retryAfter: '1', message: 'rate limited' } : { kind: 'complete', text: 'ok' }));
    const client = createOpenAICompletionsClient({ baseURL: server!.baseURL, model: 'm', ...fast });
    const result = await client.complete({ prompt: 'p', maxTokens: 8 });
    expect(result).toMatchObject({ text: 'ok', attempts: 2 });
    expect(server!.arrivals[1]! - server!.arrivals[0]!).toBeGreaterThanOrEqual(950);
  });

  it('backs off exponentially on 503s (full jitter: a draw below 60, 120, 240 ms)', async () => {
    await serve((index) => (index < 3 ? { kind: 'status', status: 503 } : { kind: 'complete', text: 'ok' }));
    // random() just below 1 draws each backoff at its ceiling: 59, 119, 239 ms.
    const client = createOpenAICompletionsClient({ baseURL: server!.baseURL, model: 'm', retryBaseDelayMs: 60, retryMaxDelayMs: 1000, random: () => 0.999 });
    const result = await client.complete({ prompt: 'p', maxTokens: 8 });
    expect(result.attempts).toBe(4);
    const gaps = server!.arrivals.slice(1).map((time, index) => time - server!.arrivals[index]!);
    expect(gaps[0]).toBeGreaterThanOrEqual(58);
    expect(gaps[1]).toBeGreaterThanOrEqual(118);
    expect(gaps[2]).toBeGreaterThanOrEqual(238);
  });

  it('retries a dropped connection', async () => {
    await serve((index) => (index === 0 ? { kind: 'drop' } : { kind: 'complete', text: 'ok' }));
    const client = createOpenAICompletionsClient({ baseURL: server!.baseURL, model: 'm', ...fast });
    expect(await client.complete({ prompt: 'p', maxTokens: 8 })).toMatchObject({ text: 'ok', attempts: 2 });
  });

  it('does not retry what retrying cannot fix, and says what the server said', async () => {
    await serve(() => ({ kind: 'status', status: 400, message: 'max_tokens is too large' }));
    const client = createOpenAICompletionsClient({ baseURL: server!.baseURL, model: 'm', ...fast });
    const error = await client.complete({ prompt: 'p', maxTokens: 8 }).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: 'REMOTE_HTTP', status: 400, attempts: 1, serverMessage: 'max_tokens is too large' });
    expect((error as Error).message).toMatch(/HTTP 400: max_tokens is too large/);
    expect(server!.requests).toHaveLength(1);
  });

  it('refuses to wait longer than maxRetryAfterMs, saying what the server asked', async () => {
    await serve(() => ({ kind: 'status', status: 429, retryAfter: '120' }));
    const client = createOpenAICompletionsClient({ baseURL: server!.baseURL, model: 'm', maxRetryAfterMs: 5000, ...fast });
    const started = performance.now();
    await expect(client.complete({ prompt: 'p', maxTokens: 8 })).rejects.toThrow(/HTTP 429.*asks to retry after 120 s, longer than the 5 s the client waits/);
    expect(performance.now() - started).toBeLessThan(2000);
  });

  it('keeps at most `concurrency` requests in flight', async () => {
    await serve(() => ({ kind: 'complete', text: 'ok', delayMs: 40 }));
    const client = createOpenAICompletionsClient({ baseURL: server!.baseURL, model: 'm', concurrency: 3 });
    const results = await client.generate(
      Array.from({ length: 10 }, (_, index) => `prompt ${index}`),
      { maxTokens: 4 },
    );
    expect(results).toHaveLength(10);
    expect(server!.maxInFlight).toBe(3);
  });

  it('stops at once when its signal aborts, during a request or a backoff', async () => {
    await serve((index) => (index === 0 ? { kind: 'hang' } : { kind: 'status', status: 503 }));
    const client = createOpenAICompletionsClient({ baseURL: server!.baseURL, model: 'm', timeoutMs: 10_000, retryBaseDelayMs: 10_000, random: () => 0.999 });
    const controller = new AbortController();
    const pending = client.complete({ prompt: 'p', maxTokens: 8 }, { signal: controller.signal });
    setTimeout(() => controller.abort(new Error('user cancelled')), 50);
    const started = performance.now();
    await expect(pending).rejects.toThrow('user cancelled');
    expect(performance.now() - started).toBeLessThan(2000);
    const second = new AbortController();
    const backingOff = client.complete({ prompt: 'p', maxTokens: 8 }, { signal: second.signal });
    setTimeout(() => second.abort(new Error('cancelled in backoff')), 150);
    await expect(backingOff).rejects.toThrow('cancelled in backoff');
  });
});
