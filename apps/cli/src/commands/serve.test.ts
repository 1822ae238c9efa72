import { apiKeyVariable, parseServeSettings } from './serve-settings.js';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { packagePath, runMain } from '../../test/support/run-main.js';

const folder = mkdtempSync(join(tmpdir(), 'reward-lens-serve-'));
const children: ChildProcess[] = [];
afterAll(() => {
  for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
  rmSync(folder, { recursive: true, force: true });
});

/** `reward-lens serve` in its own process, as a user starts it; resolves once it prints its address. */
function startServe(args: string[]): Promise<{ child: ChildProcess; url: string; stderr: () => string; exited: Promise<number | null> }> {
  const child = spawn(packagePath('node_modules/.bin/tsx'), ['--conditions=@reward-lens/source', 'src/bin.ts', 'serve', '--port', '0', ...args], {
    cwd: packagePath(''),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let stderr = '';
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    child.stderr!.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      const url = /serving .* on (http:\/\/[^\s]+)/.exec(stderr)?.[1];
      if (url) resolve({ child, url, stderr: () => stderr, exited });
    });
    void exited.then((code) => reject(new Error(`reward-lens serve exited with ${code} before listening:\n${stderr}`)));
  });
}

const records = [
  ...readFileSync(packagePath('examples/batch.jsonl'), 'utf8')
    .split('\n')
    .filter((line) => line.trim().endsWith('}'))
    .map((line) => JSON.parse(line) as unknown),
  { problem: 'given steps', steps: ['First, 1 + 1 = 2.', 'So the answer is 2.'] },
  { problem: 'no solution here' },
  { problem: 'an empty one', solution: '' },
  'not even an object',
];

describe('reward-lens serve (a real process)', () => {
  it('answers /v1/score exactly as score --json prints, and finishes a request in flight on SIGTERM', async () => {
    const server = await startServe(['--max-wait-ms', '1500']);
    const file = join(folder, 'records.json');
    writeFileSync(file, JSON.stringify(records));
    const local = await runMain(['score', '--file', file, '--json']);
    const lines = local.stdout.trim().split('\n');
    expect(lines).toHaveLength(records.length);

    const started = performance.now();
    const response = await fetch(`${server.url}/v1/score`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(records) });
    expect(response.status).toBe(200);
    const answers = (await response.json()) as unknown[];
    expect(answers.map((answer) => JSON.stringify(answer))).toEqual(lines);
    // The lone request waited out --max-wait-ms for company.
    expect(performance.now() - started).toBeGreaterThan(1000);

    const single = await fetch(`${server.url}/v1/score`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(records[0]) });
    const singleLine = (
      await runMain(['score', '--problem', (records[0] as { problem: string }).problem, '--solution', (records[0] as { solution: string }).solution, '--json'])
    ).stdout;
    expect(`${JSON.stringify(await single.json())}\n`).toBe(singleLine);

    // SIGTERM while a request waits in the batch queue: it is answered, then the process exits 0.
    const inFlight = fetch(`${server.url}/v1/score`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(records[1]) });
    await new Promise((resolve) => setTimeout(resolve, 300));
    server.child.kill('SIGTERM');
    const late = await inFlight;
    expect(late.status).toBe(200);
    expect(((await late.json()) as { stepScores: number[] }).stepScores).toHaveLength(3);
    expect(await server.exited).toBe(0);
    expect(server.stderr()).toContain('SIGTERM: finishing the requests in flight');
    await expect(fetch(`${server.url}/health`)).rejects.toThrow();
  });
});

describe('reward-lens serve usage', () => {
  it('refuses to listen beyond loopback without a key, before loading anything', async () => {
    const result = await runMain(['serve', '--host', '0.0.0.0']);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain('--host 0.0.0.0 is reachable from other machines: give --api-key');
  });

  it('an empty REWARD_LENS_API_KEY is named as the variable: unset on loopback, refused beyond it', () => {
    const loopback = parseServeSettings([], 'usage', { [apiKeyVariable]: '' });
    expect(loopback.apiKey).toBeUndefined();
    expect(parseServeSettings([], 'usage', { [apiKeyVariable]: 'k' }).apiKey).toBe('k');
    expect(() => parseServeSettings(['--host', '0.0.0.0'], 'usage', { [apiKeyVariable]: ' ' })).toThrow(
      'REWARD_LENS_API_KEY is set but empty: give it a key (or --api-key <key>) to serve on --host 0.0.0.0',
    );
    expect(() => parseServeSettings(['--api-key', ''], 'usage', {})).toThrow('--api-key must not be empty');
  });

  it('checks its numbers and names its routes in the help', async () => {
    expect((await runMain(['serve', '--port', '70000'])).stderr).toContain('--port must be an integer from 0 to 65535');
    expect((await runMain(['serve', '--max-wait-ms', 'soon'])).exitCode).toBe(2);
    const help = await runMain(['serve', '--help']);
    for (const route of ['POST /v1/score', 'POST /pooling', 'GET  /v1/models', 'GET  /health', 'GET  /metrics']) expect(help.stdout).toContain(route);
  });
});
