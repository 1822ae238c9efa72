import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request as the replay server received it. */
export interface ReceivedRequest {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  body: unknown;
}

export type ReplayAnswer = { status?: number; headers?: Record<string, string>; body?: unknown; delayMs?: number } | 'drop';

/**
 * Test support (not exported): an HTTP server on loopback that answers as a vLLM server would,
 * from a script: `answer(request, index)` gives each answer (status, headers, a JSON body in
 * vLLM's shape, a delay), or `'drop'` to close the connection without answering.
 */
export async function startReplayServer(answer: (request: ReceivedRequest, index: number) => ReplayAnswer | Promise<ReplayAnswer>) {
  const received: ReceivedRequest[] = [];
  let inFlight = 0;
  let maxInFlight = 0;
  const server = createServer(async (request: IncomingMessage, response: ServerResponse) => {
    inFlight += 1;
    maxInFlight = Math.max(maxInFlight, inFlight);
    try {
      const chunks: Buffer[] = [];
      for await (const chunk of request) chunks.push(chunk as Buffer);
      const text = Buffer.concat(chunks).toString('utf8');
      const entry: ReceivedRequest = {
        method: request.method ?? '',
        path: request.url ?? '',
        headers: request.headers,
        body: text === '' ? undefined : JSON.parse(text),
      };
      received.push(entry);
      const reply = await answer(entry, received.length - 1);
      if (reply === 'drop') {
        request.socket.destroy();
        return;
      }
      if (reply.delayMs) await new Promise((resolve) => setTimeout(resolve, reply.delayMs));
      if (response.destroyed) return;
      response.writeHead(reply.status ?? 200, { 'content-type': 'application/json', ...reply.headers });
      response.end(reply.body === undefined ? '' : JSON.stringify(reply.body));
    } finally {
      inFlight -= 1;
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    maxInFlight: () => maxInFlight,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** vLLM's `GET /v1/models` body for one served model (`ModelList` of `ModelCard`). */
export function vllmModelList(id: string, maxModelLength = 4096) {
  return {
    object: 'list',
    data: [
      {
        id,
        object: 'model',
        created: 1_735_689_600,
        owned_by: 'vllm',
        root: id,
        parent: null,
        max_model_len: maxModelLength,
        permission: [
          {
            id: 'modelperm-0',
            object: 'model_permission',
            created: 1_735_689_600,
            allow_create_engine: false,
            allow_sampling: true,
            allow_logprobs: true,
            allow_search_indices: false,
            allow_view: true,
            allow_fine_tuning: false,
            organization: '*',
            group: null,
            is_blocking: false,
          },
        ],
      },
    ],
  };
}

/** vLLM's `POST /pooling` body (`PoolingResponse`) for one input's rows. */
export function vllmPoolingResponse(model: string, rows: number[][], promptTokens: number) {
  return {
    id: 'pool-5f1c0b7e2a9d4c3e8b6a1f0d9c8b7a6e',
    object: 'list',
    created: 1_735_689_601,
    model,
    data: [{ index: 0, object: 'pooling', data: rows }],
    usage: { prompt_tokens: promptTokens, total_tokens: promptTokens, completion_tokens: 0, prompt_tokens_details: null },
  };
}

/** vLLM's `ErrorResponse` body. */
export function vllmError(message: string, type: string, code: number) {
  return { error: { message, type, param: null, code } };
}
