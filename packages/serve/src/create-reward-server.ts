import { setMaxListeners } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { InvalidInputError, ProcessRM, RewardLensError, SequenceTooLongError } from '@reward-lens/core';
import { DynamicBatcher } from './batching/dynamic-batcher.js';
import { checkBindSafety } from './bind-safety.js';
import { checkBearer } from './http/bearer-auth.js';
import { checkHost, checkJsonContentType } from './http/cross-site-checks.js';
import { HttpError } from './http/http-error.js';
import { readJsonBody } from './http/read-json-body.js';
import { sendJson } from './http/send-json.js';
import { ServerMetrics } from './metrics/server-metrics.js';
import { StepPooling } from './pooling/step-pooling.js';
import { stepScoreRecords } from './records/record-scorer.js';
import { modelsRoute } from './routes/models-route.js';
import { poolingRoute } from './routes/pooling-route.js';
import type { RouteAnswer, RouteContext } from './routes/route-context.js';
import { scoreRoute } from './routes/score-route.js';
import type { ServerJob } from './server-jobs.js';
import { resolveServerOptions, type RewardServerOptions } from './server-options.js';

export interface RewardServer {
  /** Starts listening on the options' host and port. A non-loopback host without an API key is refused (`UnsafeBindError`). */
  listen(): Promise<{ url: string; host: string; port: number }>;
  /**
   * Graceful shutdown: stops accepting connections, answers new requests on open ones with 503,
   * runs queued work at once, and resolves when the requests in flight are answered (or the
   * shutdown timeout passed). Idempotent.
   */
  close(): Promise<void>;
  /** `http://host:port` once listening. */
  readonly url: string | undefined;
  readonly httpServer: Server;
  /** What `GET /metrics` answers. */
  metricsText(): string;
}

interface Route {
  method: 'GET' | 'POST';
  /** `/health` answers without the API key, as vLLM's does, so a load balancer can probe it. */
  open?: boolean;
  run(context: RouteContext, body: unknown, signal: AbortSignal): RouteAnswer | Promise<RouteAnswer>;
}

const wordForStatus = (error: RewardLensError): number => (InvalidInputError.isInstance(error) || SequenceTooLongError.isInstance(error) ? 400 : 500);

function asHttpError(error: unknown): HttpError {
  if (error instanceof HttpError) return error;
  if (RewardLensError.isInstance(error)) {
    const status = wordForStatus(error);
    return new HttpError(status, status === 400 ? 'BadRequestError' : 'InternalServerError', `${error.code}: ${error.message}`);
  }
  return new HttpError(500, 'InternalServerError', error instanceof Error ? error.message : String(error));
}

function timeoutError(ms: number): HttpError {
  return new HttpError(504, 'Timeout', `no answer within ${ms} ms (the server's request timeout); its queued work was dropped`);
}

/**
 * An HTTP server for a PRM on `node:http`: `POST /v1/score` (records in, step scores out),
 * vLLM's `POST /pooling` (one row per step tag), `GET /v1/models`, `GET /health` and
 * `GET /metrics` (Prometheus). Records and prompts of concurrent requests are scored in dynamic
 * batches, with results identical to scoring them one by one on a batch-invariant backend.
 * Loopback by default; bodies, tokens and time per request are bounded.
 *
 * @example
 * const server = createRewardServer(await ProcessRM.fromTiny(), { port: 8000 });
 * const { url } = await server.listen();
 * process.once('SIGTERM', () => server.close());
 */
export function createRewardServer(prm: ProcessRM, serverOptions: RewardServerOptions = {}): RewardServer {
  const options = resolveServerOptions(serverOptions);
  const pooling = new StepPooling(prm);
  const records = serverOptions.records ?? stepScoreRecords;
  const withDelimiter =
    serverOptions.processRMWithDelimiter ??
    ((delimiter: string) =>
      ProcessRM.fromBackend(prm.backend, prm.tokenizer, {
        recipe: prm.recipe,
        notes: prm.notes,
        delimiter,
        truncation: options.truncation,
        batchSize: options.maxBatchSize,
        stepDetector: prm.stepDetector ?? null,
      }));
  // Models for records' own delimiters share the served backend; a few are kept, the rest made again.
  const byDelimiter = new Map<string, ProcessRM>();
  const processRMFor = (delimiter: string | undefined): ProcessRM => {
    if (delimiter === undefined) return prm;
    let model = byDelimiter.get(delimiter);
    if (!model) {
      if (byDelimiter.size >= 32) byDelimiter.clear();
      model = withDelimiter(delimiter);
      byDelimiter.set(delimiter, model);
    }
    return model;
  };

  let inFlight = 0;
  let lastRequestAt = 0;
  let closing = false;
  let closed: Promise<void> | undefined;
  let drained: (() => void) | undefined;
  let url: string | undefined;
  const startedAt = Math.floor(Date.now() / 1000);

  const batcher = new DynamicBatcher<ServerJob, unknown>(
    async (jobs) => {
      const first = jobs[0]!;
      if (first.kind === 'score') {
        const inputs = jobs.map((job) => (job as typeof first).input);
        return records.score(processRMFor(first.delimiter), inputs, { aggregate: first.aggregate });
      }
      return pooling.run(
        jobs.map((job) => (job as typeof first).job),
        first.useActivation,
      );
    },
    {
      maxBatchTokens: options.maxBatchTokens,
      maxBatchSize: options.maxBatchSize,
      maxWaitMs: options.maxWaitMs,
      onBatch: ({ size, tokens, key, seconds }) => {
        const kind = key.split('\u0000')[0]!;
        metrics.batchSize.observe({ kind }, size);
        metrics.batchTokens.observe({ kind }, tokens);
        metrics.batchSeconds.observe({ kind }, seconds);
      },
    },
  );
  const metrics = new ServerMetrics({ inFlight: () => inFlight, queued: () => batcher.queued });
  const context: RouteContext = { prm, options, batcher, records, pooling, metrics, processRMFor };

  const routes: Record<string, Route> = {
    '/health': { method: 'GET', open: true, run: () => ({ status: 200, body: { status: 'ok', model: options.modelName, backend: prm.source.name } }) },
    '/v1/models': { method: 'GET', run: (routeContext) => modelsRoute(routeContext, startedAt) },
    '/metrics': { method: 'GET', run: () => ({ status: 200, body: metrics.text(), headers: { 'content-type': 'text/plain; version=0.0.4; charset=utf-8' } }) },
    '/v1/score': { method: 'POST', run: scoreRoute },
    '/pooling': { method: 'POST', run: poolingRoute },
  };

  async function answer(request: IncomingMessage, response: ServerResponse, route: Route): Promise<RouteAnswer> {
    if (route.method === 'GET') return route.run(context, undefined, new AbortController().signal);
    const controller = new AbortController();
    // One listener per record of the request (bounded by --max-request-tokens), each removed when
    // its record is scored: not the leak Node's default limit of 10 warns about.
    setMaxListeners(0, controller.signal);
    // A client that hangs up gets its queued work dropped too.
    response.once('close', () => {
      if (!response.writableFinished) controller.abort(new HttpError(499, 'ClientClosedRequest', 'the client closed the connection'));
    });
    const timer = setTimeout(() => controller.abort(timeoutError(options.requestTimeoutMs)), options.requestTimeoutMs);
    const aborted = new Promise<never>((_, reject) => controller.signal.addEventListener('abort', () => reject(controller.signal.reason), { once: true }));
    try {
      return await Promise.race([readJsonBody(request, options.maxBodyBytes).then((body) => route.run(context, body, controller.signal)), aborted]);
    } finally {
      clearTimeout(timer);
      if (!controller.signal.aborted) controller.abort(new Error('answered'));
      aborted.catch(() => {});
    }
  }

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const started = performance.now();
    const path = new URL(request.url ?? '/', 'http://localhost').pathname;
    const route = routes[path];
    inFlight += 1;
    lastRequestAt = performance.now();
    let status = 500;
    try {
      if (closing) throw new HttpError(503, 'ServiceUnavailable', 'the server is shutting down');
      if (!route) throw new HttpError(404, 'NotFoundError', `no route ${request.method} ${path} (routes: ${Object.keys(routes).join(', ')})`);
      if (request.method !== route.method && !(route.method === 'GET' && request.method === 'HEAD')) {
        throw new HttpError(405, 'MethodNotAllowed', `${path} takes ${route.method}, not ${request.method}`, {
          allow: route.method === 'GET' ? 'GET, HEAD' : route.method,
        });
      }
      if (options.apiKey === undefined && !options.allowUnauthenticatedRemote) checkHost(request);
      if (!route.open && options.apiKey !== undefined) checkBearer(request, options.apiKey);
      if (route.method === 'POST') checkJsonContentType(request);
      const result = await answer(request, response, route);
      status = result.status;
      sendJson(response, result.status, result.body, { closing, ...(result.headers ? { headers: result.headers } : {}) });
    } catch (error) {
      const httpError = asHttpError(error);
      status = httpError.status;
      // A request refused before its body was read (shutting down, a wrong path, method, host or
      // type): read it first; closing a socket with unread bytes resets it, and the client would
      // see ECONNRESET instead of the answer. A body too large
      // (413) is not read; that answer closes the connection.
      if (status !== 413 && !request.readableEnded) await discardBody(request, options.maxBodyBytes);
      if (status === 500)
        options.log(`reward-lens serve: ${request.method} ${path}: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
      sendJson(response, status, httpError.body(), { closing, headers: httpError.headers });
    } finally {
      inFlight -= 1;
      // An answer sent is activity too: connections the busy event loop has not accepted yet get a quiet period after it.
      lastRequestAt = performance.now();
      const label = route ? path : 'other';
      metrics.requests.add({ route: label, status: String(status) });
      metrics.latency.observe({ route: label }, (performance.now() - started) / 1000);
      if (closing && inFlight === 0) drained?.();
    }
  }

  /** Reads and drops a request's body (up to `limit` bytes; a larger one is left, and the connection closes). */
  async function discardBody(request: IncomingMessage, limit: number): Promise<void> {
    let length = 0;
    try {
      for await (const chunk of request) {
        length += (chunk as Buffer).length;
        if (length > limit) return;
      }
    } catch {
      // A client gone mid-body needs no answer.
    }
  }

  /** How long without a new request means the clients have stopped sending (the backlog is drained). */
  const quietMs = 50;
  const httpServer = createServer((request, response) => {
    void handle(request, response);
  });
  httpServer.requestTimeout = options.requestTimeoutMs + 1000;
  // A request Node's parser refuses (malformed HTTP, a body where the method takes none) gets a
  // JSON 400 like every other error, not a bare status line.
  httpServer.on('clientError', (error: NodeJS.ErrnoException, socket) => {
    if (!socket.writable || error.code === 'ECONNRESET') {
      socket.destroy();
      return;
    }
    const body = JSON.stringify(new HttpError(400, 'BadRequestError', `malformed HTTP request (${error.code ?? error.message})`).body());
    socket.end(`HTTP/1.1 400 Bad Request\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`);
  });

  return {
    get url() {
      return url;
    },
    httpServer,
    metricsText: () => metrics.text(),
    async listen() {
      const { host, port } = options;
      const warning = checkBindSafety(host, options);
      if (warning) options.log(warning);
      await new Promise<void>((resolve, reject) => {
        httpServer.once('error', reject);
        httpServer.listen(port, host, () => {
          httpServer.off('error', reject);
          resolve();
        });
      });
      const address = httpServer.address() as AddressInfo;
      const shownHost = address.family === 'IPv6' ? `[${address.address}]` : address.address;
      url = `http://${shownHost}:${address.port}`;
      return { url, host: address.address, port: address.port };
    },
    close() {
      closed ??= (async () => {
        closing = true;
        batcher.flush();
        // Still listening: a connection waiting in the accept backlog, or a request already sent on
        // an open connection, gets an answer (its 200, or the 503 every new request now gets)
        // instead of a reset. The listener closes once nothing is in flight and no request has
        // arrived for a moment, or at the shutdown timeout.
        const deadline = performance.now() + options.shutdownTimeoutMs;
        while (performance.now() < deadline && (inFlight > 0 || performance.now() - lastRequestAt < quietMs)) {
          await new Promise<void>((resolve) => {
            drained = resolve;
            setTimeout(resolve, quietMs).unref();
          });
        }
        const stopped = new Promise<void>((resolve) => httpServer.close(() => resolve()));
        httpServer.closeIdleConnections();
        if (inFlight > 0) {
          await new Promise<void>((resolve) => {
            drained = resolve;
            setTimeout(resolve, Math.max(0, deadline - performance.now())).unref();
          });
        }
        httpServer.closeAllConnections();
        await stopped;
      })();
      return closed;
    },
  };
}
