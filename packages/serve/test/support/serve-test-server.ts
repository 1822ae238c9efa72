import { request as httpRequest } from 'node:http';
import type { ProcessRM } from '@reward-lens/core';
import { createRewardServer, type RewardServer } from '../../src/create-reward-server.js';
import type { RewardServerOptions } from '../../src/server-options.js';

// The reward server as the serve tests start it, and their JSON POST.

const servers: RewardServer[] = [];

/** Closes every server `serve` started (an `afterEach`). */
export async function closeServers(): Promise<void> {
  await Promise.all(servers.splice(0).map((server) => server.close()));
}

/** A reward server for `prm` on a free loopback port, closed by `closeServers`; its URL. */
export async function serve(prm: ProcessRM, options: RewardServerOptions = {}): Promise<string> {
  const server = createRewardServer(prm, { port: 0, log: () => {}, ...options });
  servers.push(server);
  return (await server.listen()).url;
}

// biome-ignore lint/suspicious/noExplicitAny: a test reads the JSON answers field by field
export async function post(url: string, body: unknown, headers: Record<string, string> = {}): Promise<{ status: number; json: any; headers: Headers }> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, json: text === '' ? undefined : JSON.parse(text), headers: response.headers };
}

/** Keeps a server the test made itself, to be closed by `closeServers`. */
export function track(server: RewardServer): RewardServer {
  servers.push(server);
  return server;
}

/** One request on its own connection, as a load generator or a hostile client sends it. */
export function rawRequest(url: URL, path: string, method: string, headers: Record<string, string>, body?: string): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const request = httpRequest({ host: url.hostname, port: url.port, path, method, headers }, (response) => {
      let text = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (text += chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, text }));
    });
    request.on('error', reject);
    request.end(body);
  });
}
