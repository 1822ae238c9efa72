import { afterEach, describe, expect, it } from 'vitest';
import { CompletionsRequestError } from '../errors/completions-request-error.js';
import { generatorPolicy } from '../policy/generator-policy.js';
import { search } from '../search/search.js';
import { createRulePrm } from '../testing/rule-prm.js';
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

const fast = { initialRetryDelayMs: 20, maxRetryDelayMs: 200, random: () => 0 } as const;

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
    const client = createOpenAICompletionsClient({ baseURL: server!.baseURL, model: 'm', stream, maxRetries: 2, ...fast });
    const error = await client.complete({ prompt: 'p', maxTokens: 8 }).catch((caught: unknown) => caught);
    expect(CompletionsRequestError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ code: 'COMPLETIONS_REQUEST_FAILED', attempts: 3 });
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
    const client = createOpenAICompletionsClient({ baseURL: server!.baseURL, model: 'm', timeoutMs: 80, maxRetries: 1, ...fast });
    const error = await client.complete({ prompt: 'p', maxTokens: 8 }).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: 'COMPLETIONS_REQUEST_FAILED', attempts: 2, status: null });
    expect((error as Error).message).toMatch(/no response within 80 ms/);
  });

  it("honours a 429's Retry-After before retrying", async () => {
    await serve((index) => (index === 0 ? { kind: 'status', status: 429, retryAfter: '1', message: 'rate limited' } : { kind: 'complete', text: 'ok' }));
    const client = createOpenAICompletionsClient({ baseURL: server!.baseURL, model: 'm', ...fast });
    const result = await client.complete({ prompt: 'p', maxTokens: 8 });
    expect(result).toMatchObject({ text: 'ok', attempts: 2 });
    expect(server!.arrivals[1]! - server!.arrivals[0]!).toBeGreaterThanOrEqual(950);
  });

  it('backs off exponentially on 503s (jitter shortens by at most a quarter)', async () => {
    await serve((index) => (index < 3 ? { kind: 'status', status: 503 } : { kind: 'complete', text: 'ok' }));
    const client = createOpenAICompletionsClient({ baseURL: server!.baseURL, model: 'm', initialRetryDelayMs: 60, maxRetryDelayMs: 1000, random: () => 1 });
    const result = await client.complete({ prompt: 'p', maxTokens: 8 });
    expect(result.attempts).toBe(4);
    const gaps = server!.arrivals.slice(1).map((time, index) => time - server!.arrivals[index]!);
    // Delays 60, 120, 240 ms, each shortened by a quarter (random() = 1): at least 45, 90, 180.
    expect(gaps[0]).toBeGreaterThanOrEqual(44);
    expect(gaps[1]).toBeGreaterThanOrEqual(89);
    expect(gaps[2]).toBeGreaterThanOrEqual(179);
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
    expect(error).toMatchObject({ code: 'COMPLETIONS_REQUEST_FAILED', status: 400, attempts: 1 });
    expect((error as Error).message).toMatch(/HTTP 400: max_tokens is too large/);
    expect(server!.requests).toHaveLength(1);
  });

  it('refuses to wait longer than maxRetryAfterMs', async () => {
    await serve(() => ({ kind: 'status', status: 429, retryAfter: '120' }));
    const client = createOpenAICompletionsClient({ baseURL: server!.baseURL, model: 'm', maxRetryAfterMs: 5000, ...fast });
    const started = performance.now();
    await expect(client.complete({ prompt: 'p', maxTokens: 8 })).rejects.toThrow(/retry after 120 s, more than the 5 s allowed/);
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
    const client = createOpenAICompletionsClient({ baseURL: server!.baseURL, model: 'm', timeoutMs: 10_000, initialRetryDelayMs: 10_000 });
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

  it("is a TextGenerator: a stop string, EOS and the token limit map to core's stop reasons, and a policy counts the server's tokens", async () => {
    await serve((index) => {
      if (index === 0) return { kind: 'complete', text: 'Step one.', stopReason: '\n', completionTokens: 3 };
      if (index === 1) return { kind: 'complete', text: 'The end', stopReason: null, completionTokens: 2 };
      return { kind: 'complete', text: 'And so on and', finishReason: 'length', completionTokens: 4 };
    });
    const client = createOpenAICompletionsClient({ baseURL: server!.baseURL, model: 'm', concurrency: 1 });
    const generations = await client.generate(['a', 'b', 'c'], { maxTokens: 4, stop: ['\n'] });
    expect(generations.map((generation) => generation.stopReason)).toEqual(['stop-string', 'stop-token', 'max-tokens']);
    expect(generations[0]).toMatchObject({ prompt: 'a', text: 'Step one.', fullText: 'aStep one.', tokenIds: [], completionTokens: 3 });

    const policy = generatorPolicy(client, { concurrency: 1 });
    server!.requests.length = 0;
    const [proposals] = await policy.nextSteps([{ problem: 'Q', steps: ['s1'], count: 3, seed: 5 }]);
    expect(proposals).toEqual([
      { text: 'Step one.', tokens: 3, end: 'step' },
      { text: 'The end', tokens: 2, end: 'eos' },
      { text: 'And so on and', tokens: 4, end: 'length' },
    ]);
    expect(server!.requests.map((request) => request.prompt)).toEqual(['Q\n\ns1\n', 'Q\n\ns1\n', 'Q\n\ns1\n']);
    expect(new Set(server!.requests.map((request) => request.seed)).size).toBe(3);
  });

  it("stops a search through the policy when the search's signal aborts", async () => {
    await serve((index) => (index < 2 ? { kind: 'complete', text: '2 + 3 = 5.', stopReason: '\n' } : { kind: 'hang' }));
    const client = createOpenAICompletionsClient({ baseURL: server!.baseURL, model: 'm', timeoutMs: 30_000 });
    const controller = new AbortController();
    const { prm } = createRulePrm();
    const pending = search(prm, generatorPolicy(client, { concurrency: 2 }), 'Compute 2 + 3.', {
      strategy: 'beam',
      n: 2,
      beamWidth: 2,
      signal: controller.signal,
    });
    setTimeout(() => controller.abort(new Error('search cancelled')), 200);
    const started = performance.now();
    await expect(pending).rejects.toThrow('search cancelled');
    expect(performance.now() - started).toBeLessThan(5000);
  });
});
