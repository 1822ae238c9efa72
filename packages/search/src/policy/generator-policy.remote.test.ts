import { createOpenAICompletionsClient } from '@reward-lens/remote';
import { startCompletionsTestServer, type CompletionsTestServer, type ServerBehaviour } from '@reward-lens/remote/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { search } from '../search/search.js';
import { createRulePrm } from '../testing/rule-prm.js';
import { generatorPolicy } from './generator-policy.js';

// A step policy on a real OpenAI-compatible server (loopback), through @reward-lens/remote's client.

let server: CompletionsTestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function serve(script: (index: number) => ServerBehaviour) {
  server = await startCompletionsTestServer((_, index) => script(index));
  return server;
}

describe('generatorPolicy over the OpenAI completions client', () => {
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
