import { InvalidInputError } from '@reward-lens/core';
import { createRewardServer } from '@reward-lens/serve';
import type { Command } from '../command.js';
import { loadProcessRM } from '../load-process-rm.js';
import { modelOptionsHelp } from '../model-options.js';
import { exitCodes } from '../report-error.js';
import { writeText } from '../write-text.js';
import { commandLineRecords } from './serve-records.js';
import { apiKeyVariable, parseServeSettings, type ServeSettings } from './serve-settings.js';

const serveUsage = `Usage:
  reward-lens serve [--model <folder>] [--host 127.0.0.1] [--port 8000] [options]

Serves a process reward model over HTTP until SIGINT or SIGTERM, which finish the requests in
flight and refuse new ones.

  POST /v1/score     a record {"problem", "solution" | "steps", "delimiter"?, "aggregate"?} or a
                     list of them; each answer is what reward-lens score --json prints for it
  POST /pooling      vLLM's Pooling API for PRMs: {"model", "input": <prompt(s) or token ids>} in,
                     per prompt one [negative, positive] row per step tag out
  GET  /v1/models    the served model, as vLLM lists it
  GET  /health       200 while serving (needs no API key)
  GET  /metrics      Prometheus text: requests, latency, batch sizes, tokens

Model:
${modelOptionsHelp}
  --served-model-name <name>  the name /v1/models lists and /pooling checks (default: the
                            --model path, reward-lens/reward-lens-organism-prm for the
                            default PRM, or reward-lens/tiny-seed-<seed>)

Network and safety:
  --host <address>          default 127.0.0.1 (loopback only)
  --port <n>                default 8000; 0 picks a free port
  --api-key <key>           clients send Authorization: Bearer <key> (also read from
                            ${apiKeyVariable}); required to listen beyond loopback
  --allow-unauthenticated-remote
                            listen beyond loopback without a key: anyone who reaches the
                            port can use the model
  --max-body-bytes <n>      larger request bodies get 413 (default 4194304)
  --max-request-tokens <n>  requests with more tokens get 413 (default 65536)
  --request-timeout-ms <n>  unanswered requests get 504 after this (default 60000)

Batching (records and prompts of concurrent requests share forward passes):
  --max-batch-tokens <n>    tokens per batch (default 16384)
  --max-batch-size <n>      records or prompts per batch (default 32)
  --max-wait-ms <n>         how long a batch waits for company (default 0: it holds what
                            arrived while the previous batch ran)

Scoring:
  --delimiter <text>        what separates steps in a solution, unless a record names its own
                            (default: the recipe's, \\n for tiny)
  --delimiter-regex <re>    a regular expression instead
  --aggregate <name>        min, prod, mean or last, unless a record names its own (default: min)
  --truncation <mode>       none (default) or left, as for reward-lens score

Examples:
  reward-lens serve
  reward-lens serve --model models/Qwen2.5-Math-PRM-7B --recipe qwen2.5-math-prm --port 8000
  curl -s localhost:8000/v1/score -d '{"problem": "2+2?", "solution": "2+2=4.\\nThe answer is 4."}'
`;

/**
 * The first SIGINT or SIGTERM, caught; the listeners go once one arrives (or on `cancel`), so a
 * second Ctrl-C during the shutdown stops the process the usual way.
 */
function catchStopSignal(): { signal: Promise<NodeJS.Signals>; cancel(): void } {
  let stop: (signal: NodeJS.Signals) => void = () => {};
  const cancel = () => {
    process.off('SIGINT', stop);
    process.off('SIGTERM', stop);
  };
  const signal = new Promise<NodeJS.Signals>((resolve) => {
    stop = (received) => {
      cancel();
      resolve(received);
    };
  });
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  return { signal, cancel };
}

function listenError(settings: ServeSettings, error: unknown): unknown {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (code === 'EADDRINUSE' || code === 'EACCES' || code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND') {
    return new InvalidInputError(`cannot listen on ${settings.host}:${settings.port}: ${(error as Error).message}`, { cause: error });
  }
  return error;
}

/** `reward-lens serve`: the PRM behind an HTTP endpoint, with our JSON API and vLLM's /pooling. */
export const serveCommand: Command = {
  name: 'serve',
  summary: "serve a PRM over HTTP (/v1/score, vLLM's /pooling, metrics)",
  usage: serveUsage,
  async run(args, streams) {
    const settings = parseServeSettings(args, serveUsage, process.env);
    const prm = await loadProcessRM({ ...settings, batchSize: settings.maxBatchSize });
    try {
      const server = createRewardServer(prm, {
        host: settings.host,
        port: settings.port,
        ...(settings.apiKey !== undefined ? { apiKey: settings.apiKey } : {}),
        allowUnauthenticatedRemote: settings.allowUnauthenticatedRemote,
        modelName: settings.modelName,
        maxBatchTokens: settings.maxBatchTokens,
        maxBatchSize: settings.maxBatchSize,
        maxWaitMs: settings.maxWaitMs,
        maxBodyBytes: settings.maxBodyBytes,
        maxRequestTokens: settings.maxRequestTokens,
        requestTimeoutMs: settings.requestTimeoutMs,
        records: commandLineRecords,
        aggregate: settings.aggregate,
        // A record's own delimiter: the same model, settings and notes, split differently.
        truncation: settings.truncation,
        log: (line) => void writeText(streams.stderr, `${line}\n`),
      });
      const stop = catchStopSignal();
      const { url } = await server.listen().catch((error: unknown) => {
        stop.cancel();
        throw listenError(settings, error);
      });
      await writeText(streams.stderr, `reward-lens: serving ${settings.modelName} (backend ${prm.backend.name}) on ${url}\n`);
      const signal = await stop.signal;
      await writeText(streams.stderr, `reward-lens: ${signal}: finishing the requests in flight\n`);
      await server.close();
      await writeText(streams.stderr, 'reward-lens: stopped\n');
      return exitCodes.success;
    } finally {
      await prm.dispose();
    }
  },
};
