import { randomUUID } from 'node:crypto';
import type { VllmPoolingResponse } from '@reward-lens/remote';
import { parsePoolingRequest } from '../pooling/parse-pooling-request.js';
import { poolJob } from '../server-jobs.js';
import type { RouteAnswer, RouteContext } from './route-context.js';
import { prepareWithinTokens } from './token-limit.js';

/**
 * `POST /pooling`, vLLM's Pooling API for a PRM served with STEP pooling: prompts (text or token
 * ids) in, per prompt one row per step-tag token out (`[negative, positive]` for a two-class
 * head), in vLLM's `PoolingResponse` shape. Prompts of concurrent requests share dynamic batches.
 */
export async function poolingRoute(context: RouteContext, body: unknown, signal: AbortSignal): Promise<RouteAnswer> {
  const request = parsePoolingRequest(body, context.options.modelName);
  const { prepared: jobs, tokens } = await prepareWithinTokens(
    request.inputs,
    (input) => context.pooling.prepare(input, { addSpecialTokens: request.addSpecialTokens, truncatePromptTokens: request.truncatePromptTokens }),
    (job) => job.ids.length,
    context.options.maxRequestTokens,
    signal,
  );
  const rows = (await Promise.all(jobs.map((job) => context.batcher.submit(poolJob(job, request.useActivation), signal)))) as number[][][];
  context.metrics.promptTokens.add({ route: '/pooling' }, tokens);
  context.metrics.records.add({ route: '/pooling', outcome: 'scored' }, jobs.length);
  const response: VllmPoolingResponse = {
    id: `pool-${randomUUID().replace(/-/g, '')}`,
    object: 'list',
    created: Math.floor(Date.now() / 1000),
    model: context.options.modelName,
    data: rows.map((data, index) => ({ index, object: 'pooling', data })),
    usage: { prompt_tokens: tokens, total_tokens: tokens, completion_tokens: 0, prompt_tokens_details: null },
  };
  return { status: 200, body: response };
}
