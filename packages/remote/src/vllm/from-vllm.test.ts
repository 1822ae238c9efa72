import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { InvalidInputError } from '@reward-lens/core';
import { sharedDataPath } from '@reward-lens/test-data';
import { createByteBpeTokenizer } from '@reward-lens/core';
import { RemoteHttpError } from '../http/remote-http-error.js';
import { RemoteModelNotFoundError } from '../http/remote-model-not-found-error.js';
import { RemoteResponseError } from '../http/remote-response-error.js';
import { RemoteTimeoutError } from '../http/remote-timeout-error.js';
import { RemoteUnreachableError } from '../http/remote-unreachable-error.js';
import {
  startReplayServer,
  vllmError,
  vllmModelList,
  vllmPoolingResponse,
  type ReceivedRequest,
  type ReplayAnswer,
} from '../../test/support/vllm-replay-server.js';
import { fromVllm } from './from-vllm.js';

const servers: { close(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

async function replay(model: string, pooling: (request: ReceivedRequest, index: number) => ReplayAnswer | Promise<ReplayAnswer>) {
  let poolingIndex = 0;
  const server = await startReplayServer((request) => {
    if (request.method === 'GET' && request.path === '/v1/models') return { body: vllmModelList(model) };
    if (request.method === 'POST' && request.path === '/pooling') return pooling(request, poolingIndex++);
    return { status: 404, body: { detail: 'Not Found' } };
  });
  servers.push(server);
  return server;
}

const fast = { retries: 2, retryBaseDelayMs: 1, retryMaxDelayMs: 50 };

// ProcessBench gsm8k-0 is the example of Qwen2.5-Math-PRM-7B's model card.
const gsm8k0 = (JSON.parse(readFileSync(sharedDataPath('processbench/gsm8k.json'), 'utf8')) as { problem: string; steps: string[] }[])[0]!;
// The card's published step rewards, as bf16 values; class 0 holds their bf16 complements.
const publishedRewards = [1.0, 0.1904296875, 0.9765625, 1.0];
const publishedRows = [
  [0, 1],
  [0.80859375, 0.1904296875],
  [0.0234375, 0.9765625],
  [0, 1],
];

describe('fromVllm against a server replaying vLLM /pooling answers', () => {
  it("sends the model card's rendered prompt and maps [negative, positive] rows back to steps", async () => {
    const server = await replay('Qwen/Qwen2.5-Math-PRM-7B', () => ({ body: vllmPoolingResponse('Qwen/Qwen2.5-Math-PRM-7B', publishedRows, 397) }));
    const prm = await fromVllm(server.url, { model: 'Qwen/Qwen2.5-Math-PRM-7B', recipe: 'qwen2.5-math-prm' });
    const evidence = await prm.stepScores([{ problem: gsm8k0.problem, steps: gsm8k0.steps }]);

    expect(Array.from(evidence.value.curves[0]!)).toEqual(publishedRewards);
    expect(evidence.value.stepCounts).toEqual([4]);
    expect(evidence.value.steps[0]!.map((step) => step.text)).toEqual(gsm8k0.steps);
    expect(evidence.gauge).toBe('PROBABILITY');
    expect(evidence.notes.join('\n')).toContain(`vLLM at ${server.url}, model "Qwen/Qwen2.5-Math-PRM-7B"`);
    // A score source, described as it is: no stand-in backend with zero layers.
    expect(prm.source).toMatchObject({ kind: 'scores', name: 'vllm', precision: 'bf16' });
    expect(prm.source.maxPositions).toBe(Number.MAX_SAFE_INTEGER); // the server tokenizes: positions are characters, unbounded here
    expect(() => prm.backend).toThrow(/a score source has none/);
    expect(prm.capsString).toBe('SCORES|STEP_SCORES');

    // The card: apply_chat_template([system, user: query, assistant: "<extra_0>".join(steps) + "<extra_0>"]) in Qwen2.5's ChatML.
    const system = 'Please reason step by step, and put your final answer within \\boxed{}.';
    const card = `<|im_start|>system\n${system}<|im_end|>\n<|im_start|>user\n${gsm8k0.problem}<|im_end|>\n<|im_start|>assistant\n${gsm8k0.steps.join('<extra_0>')}<extra_0><|im_end|>\n`;
    const pooling = server.received.find((request) => request.path === '/pooling')!;
    expect(pooling.body).toEqual({ model: 'Qwen/Qwen2.5-Math-PRM-7B', input: card, add_special_tokens: false });

    const outcome = await prm.score([{ problem: gsm8k0.problem, steps: gsm8k0.steps }]);
    expect(outcome.value.values[0]).toBe(1.0);
  });

  it("reads Math-Shepherd's [P(+), P(-)] rows (returned_token_ids [648, 387]) as P(+), with BOS added by the server", async () => {
    const rows = [
      [0.9375, 0.0625],
      [0.25, 0.75],
    ];
    const server = await replay('math-shepherd', () => ({ body: vllmPoolingResponse('math-shepherd', rows, 40) }));
    const prm = await fromVllm(`${server.url}/v1/`, { model: 'math-shepherd', recipe: 'math-shepherd' });
    const evidence = await prm.stepScores([{ problem: 'What is 2+3*4?', steps: ['3*4=12.', '2+12=15.'] }]);
    expect(Array.from(evidence.value.curves[0]!)).toEqual([0.9375, 0.25]);
    // Math-Shepherd's reference script: question + " " + steps, each step followed by " ки", joined by "\n".
    expect(server.received.at(-1)!.body).toEqual({ model: 'math-shepherd', input: 'What is 2+3*4? 3*4=12. ки\n2+12=15. ки', add_special_tokens: true });
  });

  it('sending text, refuses user text spelling a special token the server would read as one; with a tokenizer, sends it as plain text', async () => {
    const server = await replay('math-shepherd', () => ({ body: vllmPoolingResponse('math-shepherd', [[0.9, 0.1]], 10) }));
    const prm = await fromVllm(server.url, { model: 'math-shepherd', recipe: 'math-shepherd' });
    const sent = server.received.length;
    for (const spelling of ['<s>', '</s>', '<|im_start|>', '<unk>']) {
      const result = await prm.stepScores([{ problem: `p ${spelling}`, steps: ['a'] }], { onInvalid: 'report' });
      expect(result.value.errors[0]?.message).toContain(`the problem contains "${spelling}", which the server's tokenizer may read as a special token`);
    }
    expect(server.received.length).toBe(sent);
  });

  it('sends token ids when given the tokenizer, and refuses a text holding the tag outside the step ends', async () => {
    const tokenizer = createByteBpeTokenizer({ addedTokens: ['<extra_0>'] });
    const server = await replay('prm', (request) => {
      const ids = (request.body as { input: number[] }).input;
      const tags = ids.filter((id) => id === tokenizer.tokenToId('<extra_0>')).length;
      return {
        body: vllmPoolingResponse(
          'prm',
          Array.from({ length: tags }, () => [0.5, 0.5]),
          ids.length,
        ),
      };
    });
    const prm = await fromVllm(server.url, { model: 'prm', recipe: 'qwen2.5-math-prm', tokenizer });
    const pair = { problem: 'Compute 2+2.', steps: ['2+2=4.', 'The answer is 4.'] };
    const evidence = await prm.stepScores([pair]);
    expect(Array.from(evidence.value.curves[0]!)).toEqual([0.5, 0.5]);
    expect((server.received.at(-1)!.body as { input: number[] }).input).toEqual(Array.from(prm.tokenize(pair).inputIds));
    expect(evidence.value.meta[0]!.tokenCount).toBe(prm.tokenize(pair).inputIds.length);
    await expect(prm.stepScores([{ problem: 'Why <extra_0>?', steps: ['a', 'b'] }])).rejects.toThrow(
      /the problem contains "<extra_0>", the token recipe "qwen2.5-math-prm" places at step boundaries/,
    );
  });

  it('reports a bad input per pair with onInvalid report and scores the others', async () => {
    const server = await replay('prm', () => ({ body: vllmPoolingResponse('prm', [[0.75, 0.25]], 30) }));
    const prm = await fromVllm(server.url, { model: 'prm', recipe: 'qwen2.5-math-prm' });
    const evidence = await prm.stepScores(
      [
        { problem: 'p', solution: '' },
        { problem: 'q', steps: ['only step'] },
      ],
      { onInvalid: 'report' },
    );
    expect(InvalidInputError.isInstance(evidence.value.errors[0])).toBe(true);
    expect(Array.from(evidence.value.curves[1]!)).toEqual([0.25]);
    expect(server.received.filter((request) => request.path === '/pooling')).toHaveLength(1);
  });

  it('names a wrong model with the models the server does serve', async () => {
    const server = await replay('Qwen/Qwen2.5-Math-PRM-7B', () => ({ body: {} }));
    const error = await fromVllm(server.url, { model: 'qwen-prm', recipe: 'qwen2.5-math-prm' }).catch((caught: unknown) => caught);
    expect(RemoteModelNotFoundError.isInstance(error)).toBe(true);
    expect((error as Error).message).toContain('does not serve model "qwen-prm" (it serves: "Qwen/Qwen2.5-Math-PRM-7B")');
  });

  it('gives up on an unreachable server after its retries', async () => {
    const server = await replay('prm', () => ({ body: {} }));
    await server.close();
    servers.pop();
    const error = await fromVllm(server.url, { model: 'prm', recipe: 'qwen2.5-math-prm', ...fast }).catch((caught: unknown) => caught);
    expect(RemoteUnreachableError.isInstance(error)).toBe(true);
    expect((error as Error).message).toMatch(/cannot reach .*\/v1\/models \(ECONNREFUSED.*\) after 3 attempts/);
  });

  it('says what a row count that does not match the steps means', async () => {
    // A pooler without step_tag_id returns one row per token.
    const server = await replay('prm', () => ({
      body: vllmPoolingResponse(
        'prm',
        Array.from({ length: 7 }, () => [0.5, 0.5]),
        7,
      ),
    }));
    const prm = await fromVllm(server.url, { model: 'prm', recipe: 'qwen2.5-math-prm' });
    const error = await prm.stepScores([{ problem: 'p', steps: ['a', 'b'] }]).catch((caught: unknown) => caught);
    expect(RemoteResponseError.isInstance(error)).toBe(true);
    expect((error as Error).message).toContain('pair 0: 7 rows for 2 steps; one row per token: the pooler has no step_tag_id');
  });

  it('refuses rows of the wrong width and rows that are not probabilities', async () => {
    const wide = await replay('ms', () => ({ body: vllmPoolingResponse('ms', [[0.1, 0.2, 0.7]], 9) }));
    const shepherd = await fromVllm(wide.url, { model: 'ms', recipe: 'math-shepherd' });
    await expect(shepherd.stepScores([{ problem: 'p', steps: ['a'] }])).rejects.toThrow(/row 0 has 3 values, expected 2; serve it with "returned_token_ids"/);
    const raw = await replay('prm', () => ({ body: vllmPoolingResponse('prm', [[-2.5, 3.25]], 9) }));
    const qwen = await fromVllm(raw.url, { model: 'prm', recipe: 'qwen2.5-math-prm' });
    await expect(qwen.stepScores([{ problem: 'p', steps: ['a'] }])).rejects.toThrow(/is not a probability distribution; the server returned raw outputs/);
    const flat = await replay('prm', () => ({ body: { ...vllmPoolingResponse('prm', [], 9), data: [{ index: 0, object: 'pooling', data: [0.25, 0.75] }] } }));
    const sequence = await fromVllm(flat.url, { model: 'prm', recipe: 'qwen2.5-math-prm' });
    await expect(sequence.stepScores([{ problem: 'p', steps: ['a'] }])).rejects.toThrow(/1-D list of 2 values, not one row per step tag/);
  });

  it("passes an HTTP error on with the server's message", async () => {
    const server = await replay('prm', () => ({
      status: 400,
      body: vllmError("This model's maximum context length is 4096 tokens. However, you requested 5000 tokens.", 'BadRequestError', 400),
    }));
    const prm = await fromVllm(server.url, { model: 'prm', recipe: 'qwen2.5-math-prm', ...fast });
    const error = await prm.stepScores([{ problem: 'p', steps: ['a'] }]).catch((caught: unknown) => caught);
    expect(RemoteHttpError.isInstance(error)).toBe(true);
    expect((error as RemoteHttpError).status).toBe(400);
    expect((error as Error).message).toContain("answered HTTP 400: This model's maximum context length is 4096 tokens.");
    expect(server.received.filter((request) => request.path === '/pooling')).toHaveLength(1);
  });

  it('retries 429 (honouring Retry-After), 503 and dropped connections, then succeeds', async () => {
    const script: ReplayAnswer[] = [
      { status: 429, headers: { 'retry-after': '0' }, body: vllmError('too many requests', 'RateLimitError', 429) },
      { status: 503, body: vllmError('loading', 'ServiceUnavailableError', 503) },
      'drop',
    ];
    const server = await replay('prm', (_request, index) => script[index] ?? { body: vllmPoolingResponse('prm', [[0.5, 0.5]], 9) });
    const prm = await fromVllm(server.url, { model: 'prm', recipe: 'qwen2.5-math-prm', retries: 3, retryBaseDelayMs: 1, retryMaxDelayMs: 50 });
    const evidence = await prm.stepScores([{ problem: 'p', steps: ['a'] }]);
    expect(Array.from(evidence.value.curves[0]!)).toEqual([0.5]);
    expect(server.received.filter((request) => request.path === '/pooling')).toHaveLength(4);
  });

  it('stops retrying after its retries, and does not wait out a Retry-After longer than it would', async () => {
    const busy = await replay('prm', () => ({ status: 503, body: vllmError('busy', 'ServiceUnavailableError', 503) }));
    const prm = await fromVllm(busy.url, { model: 'prm', recipe: 'qwen2.5-math-prm', ...fast });
    await expect(prm.stepScores([{ problem: 'p', steps: ['a'] }])).rejects.toThrow(/HTTP 503: busy \(after 3 attempts\)/);
    const later = await replay('prm', () => ({ status: 429, headers: { 'retry-after': '120' }, body: vllmError('slow down', 'RateLimitError', 429) }));
    const patient = await fromVllm(later.url, { model: 'prm', recipe: 'qwen2.5-math-prm', ...fast });
    await expect(patient.stepScores([{ problem: 'p', steps: ['a'] }])).rejects.toThrow(/asks to retry after 120 s/);
  });

  it('times out, aborts, and keeps to its concurrency limit', async () => {
    const slow = await replay('prm', () => ({ delayMs: 2000, body: vllmPoolingResponse('prm', [[0.5, 0.5]], 9) }));
    const timed = await fromVllm(slow.url, { model: 'prm', recipe: 'qwen2.5-math-prm', timeoutMs: 100 });
    const error = await timed.stepScores([{ problem: 'p', steps: ['a'] }]).catch((caught: unknown) => caught);
    expect(RemoteTimeoutError.isInstance(error)).toBe(true);

    const controller = new AbortController();
    const abortable = await fromVllm(slow.url, { model: 'prm', recipe: 'qwen2.5-math-prm', signal: controller.signal });
    const pending = abortable.stepScores([{ problem: 'p', steps: ['a'] }]);
    setTimeout(() => controller.abort(new Error('caller gave up')), 50);
    await expect(pending).rejects.toThrow('caller gave up');

    // A call's own signal (ScoringOptions.signal) aborts that call's requests in flight, and the client goes on.
    const perCall = await fromVllm(slow.url, { model: 'prm', recipe: 'qwen2.5-math-prm' });
    const call = new AbortController();
    const started = Date.now();
    const stopped = perCall.stepScores([{ problem: 'p', steps: ['a'] }], { signal: call.signal });
    setTimeout(() => call.abort(new Error('this call only')), 50);
    await expect(stopped).rejects.toThrow('this call only');
    expect(Date.now() - started).toBeLessThan(1500);

    const counted = await replay('prm', () => ({ delayMs: 30, body: vllmPoolingResponse('prm', [[0.5, 0.5]], 9) }));
    const limited = await fromVllm(counted.url, { model: 'prm', recipe: 'qwen2.5-math-prm', concurrency: 2 });
    await limited.stepScores(Array.from({ length: 6 }, (_, index) => ({ problem: `p${index}`, steps: ['a'] })));
    expect(counted.maxInFlight()).toBeLessThanOrEqual(2);
    expect(counted.received.filter((request) => request.path === '/pooling')).toHaveLength(6);
  });

  it('refuses recipes that do not read at a step tag, and bad URLs, before any request', async () => {
    await expect(fromVllm('http://127.0.0.1:9', { model: 'm', recipe: 'rlhflow-llama3.1' })).rejects.toThrow(/does not read at a step tag/);
    await expect(fromVllm('http://127.0.0.1:9', { model: 'm', recipe: 'plain-value' })).rejects.toThrow(/does not read at a step tag/);
    await expect(fromVllm('127.0.0.1:8000', { model: 'm', recipe: 'qwen2.5-math-prm' })).rejects.toThrow(/is not an http\(s\) URL|is not a URL/);
  });
});
