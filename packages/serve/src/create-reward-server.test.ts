import { request as httpRequest } from 'node:http';
import { createByteBpeTokenizer, createRandomDecoder, ProcessRM } from '@reward-lens/core';
import { tokenDetector } from '@reward-lens/core/testing';
import '@reward-lens/backend-tiny/register';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createRewardServer } from './create-reward-server.js';
import { byteBpeQwenPrm, sampleRecords } from '../test/support/test-models.js';
import { closeServers, post, rawRequest, serve, track } from '../test/support/serve-test-server.js';

afterEach(closeServers);

let tiny: ProcessRM;
let qwen: ProcessRM;
beforeAll(async () => {
  tiny = await ProcessRM.fromTiny({ seed: 0, batchSize: 32 });
  qwen = byteBpeQwenPrm();
});
afterAll(async () => {
  await tiny.dispose();
  await qwen.dispose();
});

describe('POST /v1/score', () => {
  it('answers one record with its step scores, and a list with one answer per record, bad ones in their place', async () => {
    const url = await serve(tiny);
    const [record] = sampleRecords(1);
    const single = await post(`${url}/v1/score`, record);
    expect(single.status).toBe(200);
    const local = await tiny.stepScores([record as { problem: string; solution: string }]);
    expect(single.json.stepScores).toEqual(Array.from(local.value.curves[0]!));
    expect(single.json.outcome).toBe(local.value.curves[0]!.at(-1));
    expect(single.json.steps).toEqual(local.value.steps[0]!.map((step) => step.text));
    expect(single.json).toMatchObject({ gauge: 'INVARIANT', trust: 'EXPLORATORY', backend: 'tiny' });

    const batch = await post(`${url}/v1/score`, [record, { problem: 'p', solution: '' }, 'not a record', { problem: 'q', steps: ['one', 'two'] }]);
    expect(batch.status).toBe(200);
    expect(batch.json.map((answer: { index: number }) => answer.index)).toEqual([0, 1, 2, 3]);
    expect(batch.json[0].stepScores).toEqual(single.json.stepScores);
    expect(batch.json[1].error.code).toBe('INVALID_INPUT');
    expect(batch.json[2].error.message).toContain('expected a record object');
    expect(batch.json[3].stepScores).toHaveLength(2);

    const bad = await post(`${url}/v1/score`, { problem: 'p', solution: '' });
    expect(bad.status).toBe(422);
    expect(bad.json.error.code).toBe('INVALID_INPUT');
  });

  it("honours a record's own delimiter and checks its aggregate", async () => {
    const url = await serve(tiny);
    const record = { problem: 'Compute 2+2.', solution: 'First, 2+2.\n\nIt is 4.\nSo 4.' };
    const answer = await post(`${url}/v1/score`, { ...record, delimiter: '\n\n' });
    const local = await (await ProcessRM.fromTiny({ seed: 0, delimiter: '\n\n' })).stepScores([record]);
    expect(answer.json.stepScores).toEqual(Array.from(local.value.curves[0]!));
    expect(answer.json.stepScores).toHaveLength(2);
    const wrong = await post(`${url}/v1/score`, { ...record, aggregate: 'median' });
    expect(wrong.status).toBe(422);
    expect(wrong.json.error.message).toContain('"aggregate" must be one of');
  });

  it("truncates a record with its own delimiter as the server is told to (the served model's setting)", async () => {
    const record = { problem: 'Compute 2+2.', solution: Array.from({ length: 120 }, (_, index) => `Step ${index}: 2+2 is 4.`).join('\n\n') };
    const refused = await post(`${await serve(tiny)}/v1/score`, { ...record, delimiter: '\n\n' });
    expect(refused.json.error.code).toBe('SEQUENCE_TOO_LONG');
    const answer = await post(`${await serve(tiny, { truncation: 'left' })}/v1/score`, { ...record, delimiter: '\n\n' });
    const local = await ProcessRM.fromTiny({ seed: 0, delimiter: '\n\n', truncation: 'left' });
    const scores = Array.from((await local.stepScores([record])).value.curves[0]!, (score) => (Number.isFinite(score) ? score : null));
    await local.dispose();
    expect(answer.json.stepScores).toEqual(scores);
    expect(scores.filter((score) => score === null).length).toBeGreaterThan(0);
  });

  it("keeps the model's learned step detector for a record with its own delimiter", async () => {
    const tokenizer = createByteBpeTokenizer();
    const stepDetector = tokenDetector(createRandomDecoder({ seed: 0 }), tokenizer.encode('a. b').ids[1]!, { name: 'sentence-ends' });
    const withDetector = ProcessRM.fromBackend(tiny.backend, tiny.tokenizer, { stepDetector });
    const url = await serve(withDetector);
    const record = { problem: 'Compute 2+2.', solution: 'First, 2+2. It is 4. So 4.' };
    for (const body of [record, { ...record, delimiter: '\n\n' }]) {
      const answer = await post(`${url}/v1/score`, body);
      expect(answer.json.steps).toEqual(['First, 2+2.', 'It is 4.', 'So 4.']);
      expect(answer.json.meta.stepMethod).toBe('learned');
    }
  });

  it('gives many concurrent requests exactly the scores of scoring each record alone, in shared batches', async () => {
    const url = await serve(tiny, { maxBatchSize: 16, maxWaitMs: 20 });
    const records = sampleRecords(40);
    const answers = await Promise.all(
      records.map((record, index) => (index % 4 === 0 ? post(`${url}/v1/score`, [record, record]) : post(`${url}/v1/score`, record))),
    );
    const alone = await ProcessRM.fromTiny({ seed: 0, batchSize: 1 });
    for (const [index, record] of records.entries()) {
      const local = await alone.stepScores([record as { problem: string; solution: string }]);
      const expected = Array.from(local.value.curves[0]!);
      const answer = answers[index]!.json;
      for (const got of Array.isArray(answer) ? answer : [answer]) expect(got.stepScores, `record ${index}`).toEqual(expected);
    }
    const metrics = await (await fetch(`${url}/metrics`)).text();
    // 50 records (ten requests hold two), in far fewer batches: they were scored together.
    const batches = Number(/reward_lens_batch_size_count\{kind="score"\} (\d+)/.exec(metrics)![1]);
    expect(batches).toBeLessThan(25);
    expect(metrics).toContain('reward_lens_http_requests_total{route="/v1/score",status="200"} 40');
  });
});

describe('POST /pooling, as vLLM answers it', () => {
  it('returns one [negative, positive] row per step tag, whose positive column is the local step score exactly', async () => {
    const url = await serve(qwen, { modelName: 'Qwen/Qwen2.5-Math-PRM-7B' });
    const pair = { problem: 'Compute (2+2)*3.', steps: ['2+2=4.', '4*3=12.', 'The answer is 12.'] };
    const tokenized = qwen.tokenize(pair);
    const answer = await post(`${url}/pooling`, { model: 'Qwen/Qwen2.5-Math-PRM-7B', input: tokenized.text });
    expect(answer.status).toBe(200);
    expect(answer.json).toMatchObject({
      object: 'list',
      model: 'Qwen/Qwen2.5-Math-PRM-7B',
      usage: { prompt_tokens: tokenized.inputIds.length, completion_tokens: 0 },
    });
    expect(answer.json.id).toMatch(/^pool-[0-9a-f]{32}$/);
    expect(answer.json.data).toHaveLength(1);
    expect(answer.json.data[0]).toMatchObject({ index: 0, object: 'pooling' });
    const rows = answer.json.data[0].data as number[][];
    const local = await qwen.stepScores([pair]);
    expect(Float32Array.from(rows, (row) => row[1]!)).toEqual(local.value.curves[0]);
    for (const row of rows) expect(row[0]! + row[1]!).toBeCloseTo(1, 12);

    // Token ids in give the same rows; raw outputs come back with use_activation false.
    const byIds = await post(`${url}/pooling`, { input: [Array.from(tokenized.inputIds)] });
    expect(byIds.json.data[0].data).toEqual(rows);
    const raw = (await post(`${url}/pooling`, { input: tokenized.text, use_activation: false })).json.data[0].data as number[][];
    raw.forEach((logits, index) => expect(1 / (1 + Math.exp(logits[0]! - logits[1]!))).toBeCloseTo(rows[index]![1]!, 6));
  });

  it("answers a prompt list in order, and refuses what vLLM's PRM pooling would not take", async () => {
    const url = await serve(qwen, { modelName: 'prm' });
    const texts = ['a<extra_0>', 'b<extra_0>c<extra_0>', 'no tag'];
    const many = await post(`${url}/pooling`, { input: texts });
    expect(many.json.data.map((entry: { data: unknown[] }) => entry.data.length)).toEqual([1, 2, 0]);
    const wrongModel = await post(`${url}/pooling`, { model: 'other', input: 'x' });
    expect(wrongModel.status).toBe(404);
    expect(wrongModel.json).toEqual({ error: { message: 'The model `other` does not exist.', type: 'NotFoundError', param: null, code: 404 } });
    expect((await post(`${url}/pooling`, { messages: [{ role: 'user', content: 'x' }] })).status).toBe(400);
    expect((await post(`${url}/pooling`, { input: 'x', encoding_format: 'base64' })).json.error.message).toContain('encoding_format');
    expect((await post(`${url}/pooling`, { input: [[1, 2, 99_999_999]] })).json.error.message).toContain('not in the vocabulary');
    const long = await post(`${url}/pooling`, { input: 'x'.repeat(5000) });
    expect(long.status).toBe(400);
    expect(long.json.error.message).toContain("This model's maximum context length is 1024 tokens");
  });
});

describe('the other routes', () => {
  it('lists the model as vLLM does, reports health, and exposes Prometheus metrics', async () => {
    const url = await serve(qwen, { modelName: 'prm' });
    const models = await (await fetch(`${url}/v1/models`)).json();
    expect(models).toMatchObject({ object: 'list', data: [{ id: 'prm', object: 'model', root: 'prm', parent: null, max_model_len: 1024 }] });
    expect(await (await fetch(`${url}/health`)).json()).toMatchObject({ status: 'ok', model: 'prm' });
    await post(`${url}/pooling`, { input: 'a<extra_0>' });
    const response = await fetch(`${url}/metrics`);
    expect(response.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8');
    const text = await response.text();
    expect(text).toContain('# TYPE reward_lens_http_requests_total counter');
    expect(text).toContain('reward_lens_http_requests_total{route="/pooling",status="200"} 1');
    expect(text).toMatch(/reward_lens_http_request_duration_seconds_bucket\{route="\/pooling",le="\+Inf"\} 1/);
    expect(text).toContain('reward_lens_batch_size_bucket{kind="pool",le="1"} 1');
    expect(text).toMatch(/reward_lens_prompt_tokens_total\{route="\/pooling"\} \d+/);
  });
});

/** A raw request, with headers fetch would not let a test set (Host). */
describe('limits and safety', () => {
  it('answers 404, 405, 400 for malformed JSON, and 413 for large bodies and token counts, in JSON', async () => {
    const url = await serve(tiny, { maxBodyBytes: 2000, maxRequestTokens: 300 });
    const unknown = await fetch(`${url}/v2/score`);
    expect(unknown.status).toBe(404);
    expect((await unknown.json()).error.type).toBe('NotFoundError');
    const wrongMethod = await fetch(`${url}/v1/score`);
    expect(wrongMethod.status).toBe(405);
    expect(wrongMethod.headers.get('allow')).toBe('POST');
    const malformed = await post(`${url}/v1/score`, '{"problem": "p", ');
    expect(malformed.status).toBe(400);
    expect(malformed.json.error.message).toMatch(/^invalid JSON: /);
    const large = await post(`${url}/v1/score`, { problem: 'p'.repeat(3000), solution: 's' });
    expect(large.status).toBe(413);
    expect(large.json.error.message).toContain('larger than 2000 bytes');
    const many = await post(`${url}/v1/score`, sampleRecords(12));
    expect(many.status).toBe(413);
    // Counting stops at the first record past the limit: the rest are not tokenized.
    expect(many.json.error.message).toMatch(/holds more than 300 tokens \(\d+ in the records counted before stopping\); the limit is 300/);
  });

  it('refuses a body larger than the limit that declares no length (chunked)', async () => {
    const url = new URL(await serve(tiny, { maxBodyBytes: 100 }));
    const status = await new Promise<number>((resolve, reject) => {
      const request = httpRequest(
        {
          host: url.hostname,
          port: url.port,
          path: '/v1/score',
          method: 'POST',
          headers: { 'transfer-encoding': 'chunked', 'content-type': 'application/json' },
        },
        (response) => {
          response.resume();
          resolve(response.statusCode ?? 0);
        },
      );
      request.on('error', reject);
      request.write('{"problem": "');
      request.end(`${'x'.repeat(500)}"}`);
    });
    expect(status).toBe(413);
  });

  it('answers 504 when a request outlives its timeout, and drops its queued work', async () => {
    const server = createRewardServer(tiny, { port: 0, log: () => {}, requestTimeoutMs: 100, maxWaitMs: 1000, maxBatchSize: 64 });
    track(server);
    const { url } = await server.listen();
    const answer = await post(`${url}/v1/score`, sampleRecords(1)[0]);
    expect(answer.status).toBe(504);
    expect(answer.json.error.type).toBe('Timeout');
    expect(server.metricsText()).toContain('reward_lens_batch_queue_jobs 0');
    expect(server.metricsText()).not.toContain('reward_lens_batch_size_count');
  });

  it('requires the API key on every route but /health', async () => {
    const url = await serve(tiny, { apiKey: 'secret-key' });
    const record = sampleRecords(1)[0];
    expect((await post(`${url}/v1/score`, record)).status).toBe(401);
    const wrong = await post(`${url}/v1/score`, record, { authorization: 'Bearer nope' });
    expect(wrong.status).toBe(401);
    expect(wrong.headers.get('www-authenticate')).toBe('Bearer');
    expect((await post(`${url}/v1/score`, record, { authorization: 'Bearer secret-key' })).status).toBe(200);
    expect((await fetch(`${url}/metrics`)).status).toBe(401);
    expect((await fetch(`${url}/health`)).status).toBe(200);
  });

  it('refuses to listen beyond loopback without a key', async () => {
    const server = createRewardServer(tiny, { host: '0.0.0.0', port: 0, log: () => {} });
    await expect(server.listen()).rejects.toThrow(/refusing to listen on 0\.0\.0\.0 without an API key/);
  });

  it('shuts down gracefully: the request in flight is answered, new connections are refused', async () => {
    const server = createRewardServer(tiny, { port: 0, log: () => {}, maxWaitMs: 400 });
    const { url } = await server.listen();
    const record = sampleRecords(1)[0];
    const inFlight = post(`${url}/v1/score`, record);
    await new Promise((resolve) => setTimeout(resolve, 100));
    const closed = server.close();
    const answer = await inFlight;
    expect(answer.status).toBe(200);
    expect(answer.json.stepScores).toHaveLength(4);
    await closed;
    await expect(fetch(`${url}/health`)).rejects.toThrow();
  });

  it('shuts down under load without a reset: every request already sent gets its 200 or a 503, then it exits', async () => {
    const server = createRewardServer(tiny, { port: 0, log: () => {} });
    const url = new URL((await server.listen()).url);
    const body = JSON.stringify(sampleRecords(1)[0]);
    const outcomes: (number | string)[] = [];
    let answered = 0;
    let closing: Promise<void> | undefined;
    // 300 requests, 64 at a time, each on its own connection (as a load generator without keep-alive sends them).
    const one = () =>
      rawRequest(url, '/v1/score', 'POST', { host: url.host, 'content-type': 'application/json', connection: 'close' }, body).then(
        ({ status }) => {
          outcomes.push(status);
          if (++answered === 20) closing = server.close();
        },
        (error: NodeJS.ErrnoException) => outcomes.push(error.code ?? String(error)),
      );
    let next = 0;
    const sent: Promise<unknown>[] = [];
    const worker = async () => {
      // Stop sending once the server is closing and has stopped listening (a refused connect is fine then).
      while (next < 300 && closing === undefined) {
        next++;
        const request = one();
        sent.push(request);
        await request;
      }
    };
    await Promise.all(Array.from({ length: 64 }, worker));
    await Promise.all(sent);
    await closing;
    const resets = outcomes.filter((outcome) => outcome === 'ECONNRESET' || outcome === 'EPIPE');
    expect(resets).toEqual([]);
    expect(outcomes.every((outcome) => outcome === 200 || outcome === 503)).toBe(true);
    expect(outcomes.filter((outcome) => outcome === 200).length).toBeGreaterThanOrEqual(20);
  });
});
