import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** What the test server does with one request. */
export type ServerBehaviour =
  /** Answers with this completion (JSON, or server-sent events when the request streams). */
  | { kind: 'complete'; text: string; finishReason?: 'stop' | 'length'; stopReason?: string | number | null; completionTokens?: number; delayMs?: number }
  /** Answers with an error status (and `Retry-After` when given). */
  | { kind: 'status'; status: number; retryAfter?: string; message?: string }
  /** Never answers (a request timeout must end it). */
  | { kind: 'hang' }
  /** Sends the first part of the answer, then closes the connection: a server that dies mid-request. */
  | { kind: 'die-mid-request'; partialText: string }
  /** Closes the connection without answering. */
  | { kind: 'drop' };

export interface CompletionsBody {
  model?: string;
  prompt: string;
  max_tokens?: number;
  temperature?: number;
  top_p?: number;
  seed?: number;
  stop?: string[];
  stream?: boolean;
  [field: string]: unknown;
}

export interface CompletionsTestServer {
  /** `http://127.0.0.1:<port>/v1` */
  baseURL: string;
  /** Every request's body, in arrival order. */
  requests: CompletionsBody[];
  /** When each request arrived (ms, performance.now()). */
  arrivals: number[];
  /** The most requests that were in flight at once. */
  maxInFlight: number;
  close(): Promise<void>;
}

/** Splits text into stream chunks of a few characters, as token-by-token streaming would. */
function chunksOf(text: string): string[] {
  return text.match(/[\s\S]{1,3}/g) ?? [];
}

function sendJson(response: ServerResponse, status: number, value: unknown, headers: Record<string, string> = {}): void {
  response.writeHead(status, { 'content-type': 'application/json', ...headers });
  response.end(JSON.stringify(value));
}

/**
 * A real HTTP server on loopback that speaks OpenAI's `/v1/completions` (JSON and server-sent
 * events, with vLLM's `stop_reason` and `usage`) and `/v1/models`. `behave(body, index)` decides
 * each request's fate, so a test can script 429s, 503s, hangs and deaths mid-request.
 */
export async function startCompletionsTestServer(
  behave: (body: CompletionsBody, index: number) => ServerBehaviour,
  model = 'test-model',
): Promise<CompletionsTestServer> {
  const requests: CompletionsBody[] = [];
  const arrivals: number[] = [];
  let inFlight = 0;
  const state = { maxInFlight: 0 };
  const sockets = new Set<import('node:net').Socket>();

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    if (request.method === 'GET' && request.url === '/v1/models') return sendJson(response, 200, { object: 'list', data: [{ id: model, object: 'model' }] });
    if (request.method !== 'POST' || request.url !== '/v1/completions')
      return sendJson(response, 404, { error: { message: `no route ${request.method} ${request.url}` } });
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as CompletionsBody;
    const index = requests.length;
    requests.push(body);
    arrivals.push(performance.now());
    const behaviour = behave(body, index);
    switch (behaviour.kind) {
      case 'status':
        return sendJson(
          response,
          behaviour.status,
          { error: { message: behaviour.message ?? `status ${behaviour.status}` } },
          behaviour.retryAfter ? { 'retry-after': behaviour.retryAfter } : {},
        );
      case 'hang':
        return new Promise<void>((resolve) => response.on('close', resolve));
      case 'drop':
        request.socket.destroy();
        return;
      case 'die-mid-request':
        if (body.stream) {
          response.writeHead(200, { 'content-type': 'text/event-stream' });
          response.write(`data: ${JSON.stringify({ choices: [{ index: 0, text: behaviour.partialText, finish_reason: null }] })}\n\n`);
        } else {
          response.writeHead(200, { 'content-type': 'application/json' });
          response.write(`{"choices": [{"index": 0, "text": ${JSON.stringify(behaviour.partialText)}`);
        }
        await new Promise((resolve) => setTimeout(resolve, 20));
        request.socket.destroy();
        return;
      case 'complete': {
        if (behaviour.delayMs) await new Promise((resolve) => setTimeout(resolve, behaviour.delayMs));
        const finish = behaviour.finishReason ?? 'stop';
        const stopReason = behaviour.stopReason === undefined ? {} : { stop_reason: behaviour.stopReason };
        const tokens = behaviour.completionTokens ?? chunksOf(behaviour.text).length;
        const usage = { prompt_tokens: body.prompt.length, completion_tokens: tokens, total_tokens: body.prompt.length + tokens };
        if (!body.stream) {
          return sendJson(response, 200, {
            id: `cmpl-${index}`,
            object: 'text_completion',
            model,
            choices: [{ index: 0, text: behaviour.text, finish_reason: finish, ...stopReason }],
            usage,
          });
        }
        response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
        const pieces = chunksOf(behaviour.text);
        for (const [position, piece] of pieces.entries()) {
          const last = position === pieces.length - 1;
          response.write(
            `data: ${JSON.stringify({ id: `cmpl-${index}`, choices: [{ index: 0, text: piece, finish_reason: last ? finish : null, ...(last ? stopReason : {}) }] })}\n\n`,
          );
        }
        if (pieces.length === 0) response.write(`data: ${JSON.stringify({ choices: [{ index: 0, text: '', finish_reason: finish, ...stopReason }] })}\n\n`);
        const includeUsage = (body.stream_options as { include_usage?: boolean } | undefined)?.include_usage === true;
        if (includeUsage) response.write(`data: ${JSON.stringify({ id: `cmpl-${index}`, choices: [], usage })}\n\n`);
        response.end('data: [DONE]\n\n');
        return;
      }
    }
  }

  const server = createServer((request, response) => {
    inFlight++;
    state.maxInFlight = Math.max(state.maxInFlight, inFlight);
    let counted = true;
    const done = () => {
      if (counted) inFlight--;
      counted = false;
    };
    response.on('close', done);
    handle(request, response).catch((error: unknown) => {
      done();
      if (!response.headersSent) sendJson(response, 500, { error: { message: String(error) } });
      else response.destroy();
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    requests,
    arrivals,
    get maxInFlight() {
      return state.maxInFlight;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
