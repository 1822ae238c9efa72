import { ProcessRM } from '@reward-lens/core';
import { connectVllm, type VllmOptions } from './connect-vllm.js';

/**
 * A PRM served by vLLM (its `/pooling` endpoint, STEP pooling): the recipe's template and step
 * tags are rendered here, the server returns one `[negative, positive]` row per step tag, and the
 * results are the same type as a local model's, with notes naming the server and model. A
 * `ProcessRM` on a score source (`prm.source` says so): SCORES and STEP_SCORES only.
 * Browser-safe (fetch only). Retries, timeouts, a concurrency limit and an AbortSignal are options.
 *
 * @example
 * const prm = await fromVllm('http://127.0.0.1:8000', { model: 'Qwen/Qwen2.5-Math-PRM-7B', recipe: 'qwen2.5-math-prm' });
 */
export async function fromVllm(baseUrl: string, options: VllmOptions): Promise<ProcessRM> {
  const { source, tokenizer, recipe, notes } = await connectVllm(baseUrl, options);
  return ProcessRM.fromScoreSource(source, tokenizer, {
    recipe,
    notes,
    ...(options.delimiter !== undefined ? { delimiter: options.delimiter } : {}),
    ...(options.detector ? { detector: options.detector } : {}),
    ...(options.truncation ? { truncation: options.truncation } : {}),
  });
}
