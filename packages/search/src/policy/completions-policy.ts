import { createOpenAICompletionsClient } from '@reward-lens/remote';
import { generatorPolicy } from './generator-policy.js';
import { samplingOptions } from './policy-sampling.js';
import type { LoadedPolicy, PolicySettings } from './policy-settings.js';

/** An OpenAI-compatible `/v1/completions` server (vLLM, llama.cpp's server) at `url` as a policy, through `@reward-lens/remote`'s client. */
export function completionsPolicy(url: string, settings: PolicySettings): LoadedPolicy {
  const client = createOpenAICompletionsClient({
    baseURL: url,
    ...(settings.modelName !== undefined ? { model: settings.modelName } : {}),
    ...(settings.apiKey !== undefined ? { apiKey: settings.apiKey } : {}),
    stream: settings.stream,
    timeoutMs: settings.timeoutMs,
    concurrency: settings.concurrency,
    retries: settings.retries,
  });
  return {
    policy: generatorPolicy(client, { ...samplingOptions(url, settings), concurrency: settings.concurrency }),
    description: `the completions server at ${client.root}`,
    dispose: async () => {},
  };
}
