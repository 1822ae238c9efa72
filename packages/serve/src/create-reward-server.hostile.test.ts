import fc from 'fast-check';
import { ProcessRM } from '@reward-lens/core';
import '@reward-lens/backend-tiny/register';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { closeServers, post, rawRequest, serve } from '../test/support/serve-test-server.js';

// The server against hostile input: invalid text, fuzzed requests, many records, cross-site pages.

afterEach(closeServers);

let tiny: ProcessRM;
beforeAll(async () => {
  tiny = await ProcessRM.fromTiny({ seed: 0, batchSize: 32 });
});
afterAll(async () => {
  await tiny.dispose();
});

describe('invalid text', () => {
  it("a per-record delimiter holding half of a surrogate pair, or a step with a lone one, is that record's error", async () => {
    const url = await serve(tiny);
    const { status, json } = await post(`${url}/v1/score`, [
      { problem: 'p', solution: 'a😀b', delimiter: '\ud83d' },
      { problem: 'p', steps: ['a\udc00', 'b'] },
      { problem: 'p', solution: 'a😀b', delimiter: '😀' },
    ]);
    expect(status).toBe(200);
    expect(json[0].error.message).toMatch(/"delimiter" holds a lone surrogate \(U\+D83D/);
    expect(json[1].error.message).toMatch(/"steps"\[0\] holds a lone surrogate \(U\+DC00/);
    expect(json[2].steps).toEqual(['a', 'b']);
  });
});

describe('fuzz: hostile requests', () => {
  it('any body, content type, host, path or method gets a JSON answer with a status it documents, never a 500 or a hang', async () => {
    const url = new URL(await serve(tiny, { maxBodyBytes: 4096, maxRequestTokens: 2000 }));
    const json = fc.oneof(
      fc.jsonValue({ maxDepth: 3 }),
      fc.record({ problem: fc.string({ maxLength: 30 }), solution: fc.string({ maxLength: 60 }), delimiter: fc.option(fc.string({ maxLength: 3 })) }),
      fc.array(fc.record({ problem: fc.string({ maxLength: 20 }), steps: fc.array(fc.string({ maxLength: 20 }), { maxLength: 4 }) }), { maxLength: 5 }),
    );
    const body = fc.oneof(
      json.map((value) => JSON.stringify(value) ?? 'null'),
      fc.string({ maxLength: 200 }),
      fc.constant('{"problem": "p", '),
    );
    const request = fc.record({
      path: fc.constantFrom('/v1/score', '/pooling', '/health', '/v1/models', '/metrics', '/nope', '/v1/score?x=1'),
      method: fc.constantFrom('POST', 'GET', 'PUT', 'DELETE'),
      type: fc.constantFrom('application/json', 'text/plain', 'application/json; charset=utf-8', 'application/x-www-form-urlencoded', ''),
      host: fc.constantFrom(url.host, `localhost:${url.port}`, 'evil.example', `[::1]:${url.port}`),
      body,
    });
    await fc.assert(
      fc.asyncProperty(request, async ({ path, method, type, host, body: text }) => {
        const headers: Record<string, string> = { host, ...(type ? { 'content-type': type } : {}) };
        const answer = await rawRequest(url, path, method, headers, method === 'GET' ? undefined : text);
        expect([200, 400, 403, 404, 405, 413, 415, 422], `${method} ${path} ${type} ${host} ${text}`).toContain(answer.status);
        if (answer.status !== 200) expect(JSON.parse(answer.text).error.message).toEqual(expect.any(String));
      }),
      { numRuns: 120, seed: 20261202 },
    );
  });
});

describe('a request of many records', () => {
  it('scores 40 records in one request without a MaxListenersExceededWarning, and leaves no listener behind', async () => {
    const warnings: string[] = [];
    const onWarning = (warning: Error) => warnings.push(warning.name);
    process.on('warning', onWarning);
    try {
      const url = await serve(tiny, { maxBatchSize: 4 });
      const records = Array.from({ length: 40 }, (_, index) => ({ problem: `p${index}`, steps: ['a', 'b'] }));
      const { status, json } = await post(`${url}/v1/score`, records);
      expect(status).toBe(200);
      expect(json).toHaveLength(40);
      await new Promise((resolve) => setImmediate(resolve));
      expect(warnings).not.toContain('MaxListenersExceededWarning');
    } finally {
      process.off('warning', onWarning);
    }
  });
});

describe('a keyless server and cross-site pages', () => {
  const record = JSON.stringify({ problem: 'p', steps: ['a', 'b'] });
  it('answers only loopback Host names (DNS rebinding), any port, and every name with an API key', async () => {
    const url = new URL(await serve(tiny));
    for (const host of [`127.0.0.1:${url.port}`, `localhost:${url.port}`, `[::1]:${url.port}`, 'localhost']) {
      expect((await rawRequest(url, '/health', 'GET', { host })).status, host).toBe(200);
    }
    for (const host of [`evil.example:${url.port}`, '127.0.0.1.evil.example', '0.0.0.0']) {
      const answer = await rawRequest(url, '/v1/score', 'POST', { host, 'content-type': 'application/json' }, record);
      expect(answer.status, host).toBe(403);
      expect(JSON.parse(answer.text).error.type).toBe('ForbiddenHost');
    }
    const keyed = new URL(await serve(tiny, { apiKey: 'k' }));
    const allowed = await rawRequest(
      keyed,
      '/v1/score',
      'POST',
      { host: 'prm.internal', 'content-type': 'application/json', authorization: 'Bearer k' },
      record,
    );
    expect(allowed.status).toBe(200);
  });

  it('answers 415 to a body not declared JSON (a "simple" cross-site POST), before reading it', async () => {
    const url = new URL(await serve(tiny));
    for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', undefined]) {
      const answer = await rawRequest(url, '/v1/score', 'POST', { host: url.host, ...(type ? { 'content-type': type } : {}) }, record);
      expect(answer.status, type).toBe(415);
      expect(JSON.parse(answer.text).error.message).toMatch(/must be JSON with Content-Type: application\/json/);
    }
    for (const type of ['application/json', 'application/json; charset=utf-8', 'application/vnd.api+json']) {
      expect((await rawRequest(url, '/v1/score', 'POST', { host: url.host, 'content-type': type }, record)).status, type).toBe(200);
    }
  });
});
