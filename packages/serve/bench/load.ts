import { Agent, request } from 'node:http';

/** A record the load test sends, with the step scores it must come back with (scored alone). */
export interface CheckedRecord {
  body: string;
  expected: number[];
}

export interface LoadResult {
  concurrency: number;
  requests: number;
  /** Answered 200 with exactly the expected step scores. */
  correct: number;
  /** No answer, or not 200. */
  lost: number;
  /** 200 with other scores. */
  mismatched: number;
  seconds: number;
  latenciesMs: number[];
}

/** One POST over a kept-alive connection: node:http costs the load generator less CPU than fetch, leaving more to the server. */
function post(agent: Agent, url: URL, path: string, body: string): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const outgoing = request(
      {
        agent,
        host: url.hostname,
        port: url.port,
        path,
        method: 'POST',
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }));
        response.on('error', reject);
      },
    );
    outgoing.on('error', reject);
    outgoing.end(body);
  });
}

/**
 * `requests` POSTs to `/v1/score` from `concurrency` clients at once (each sends its next record
 * as soon as its previous answer arrives), stopping early at `deadlineMs`. Every answer is checked
 * against the record's unbatched scores.
 */
export async function runLoad(
  url: string,
  records: readonly CheckedRecord[],
  options: { concurrency: number; requests: number; deadlineMs: number },
): Promise<LoadResult> {
  const result: LoadResult = { concurrency: options.concurrency, requests: 0, correct: 0, lost: 0, mismatched: 0, seconds: 0, latenciesMs: [] };
  let next = 0;
  const agent = new Agent({ keepAlive: true, maxSockets: options.concurrency });
  const target = new URL(url);
  const started = performance.now();
  const client = async () => {
    while (next < options.requests && performance.now() - started < options.deadlineMs) {
      const record = records[next++ % records.length]!;
      const sent = performance.now();
      result.requests += 1;
      try {
        const response = await post(agent, target, '/v1/score', record.body);
        result.latenciesMs.push(performance.now() - sent);
        const answer = JSON.parse(response.text) as { stepScores?: number[] };
        if (response.status !== 200) result.lost += 1;
        else if (JSON.stringify(answer.stepScores) === JSON.stringify(record.expected)) result.correct += 1;
        else result.mismatched += 1;
      } catch {
        result.lost += 1;
      }
    }
  };
  await Promise.all(Array.from({ length: options.concurrency }, client));
  result.seconds = (performance.now() - started) / 1000;
  agent.destroy();
  return result;
}

/** The `q`-quantile of the values (nearest rank). */
export function quantile(values: readonly number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))]!;
}

/** The server's batch counters, read from `/metrics`: batches, jobs in them, seconds the model was busy. */
export async function batchCounters(url: string): Promise<{ batches: number; jobs: number; busySeconds: number }> {
  const text = await (await fetch(`${url}/metrics`)).text();
  const value = (pattern: RegExp) => Number(pattern.exec(text)?.[1] ?? 0);
  return {
    batches: value(/^reward_lens_batch_size_count\{kind="score"\} (\S+)$/m),
    jobs: value(/^reward_lens_batch_size_sum\{kind="score"\} (\S+)$/m),
    busySeconds: value(/^reward_lens_batch_duration_seconds_sum\{kind="score"\} (\S+)$/m),
  };
}
