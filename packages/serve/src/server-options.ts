import { InvalidInputError, type ProcessRM } from '@reward-lens/core';
import type { RecordScorer } from './records/record-scorer.js';

export interface RewardServerOptions {
  /** Default `127.0.0.1`. Another address needs `apiKey`, or `allowUnauthenticatedRemote`. */
  host?: string;
  /** Default 8000; 0 picks a free port. */
  port?: number;
  /** Clients send `Authorization: Bearer <apiKey>`; every route but `/health` requires it. */
  apiKey?: string;
  /** Listen beyond loopback without an API key. Loud on purpose: anyone who reaches the port can use the model. */
  allowUnauthenticatedRemote?: boolean;
  /** The name `/v1/models` lists and `/pooling` checks (vLLM's `--served-model-name`). Default `reward-lens`. */
  modelName?: string;
  /** Tokens per dynamic batch (real tokens, summed over its jobs). Default 16 384. */
  maxBatchTokens?: number;
  /** Records or prompts per dynamic batch. Default 32. */
  maxBatchSize?: number;
  /** How long the first job of a batch waits for others. Default 0: a batch holds the jobs that arrived while the previous one ran. */
  maxWaitMs?: number;
  /** Larger request bodies are refused with 413. Default 4 MiB. */
  maxBodyBytes?: number;
  /** A request whose records or prompts hold more tokens is refused with 413. Default 65 536. */
  maxRequestTokens?: number;
  /** A request not answered in this time gets 504, and its queued work is dropped. Default 60 000 ms. */
  requestTimeoutMs?: number;
  /** How long `close()` waits for requests in flight. Default: the request timeout plus 5 s. */
  shutdownTimeoutMs?: number;
  /** How `/v1/score` reads and answers records. Default {@link stepScoreRecords}. */
  records?: RecordScorer;
  /** The aggregate a record gets when it names none. Default `min`. */
  aggregate?: string;
  /**
   * How the models for records that name their own delimiter truncate a sequence too long for
   * the model: as the served `prm` does (which it does not expose). Default `none`.
   */
  truncation?: 'none' | 'left';
  /**
   * The model for records that name their own delimiter. Default: `prm`'s backend, tokenizer,
   * recipe, notes and step detector with that delimiter, `truncation`, and `maxBatchSize` records per forward pass.
   */
  processRMWithDelimiter?: (delimiter: string) => ProcessRM;
  /** Where warnings and the startup line go. Default: stderr. */
  log?: (line: string) => void;
}

export type ResolvedServerOptions = Required<Omit<RewardServerOptions, 'apiKey' | 'processRMWithDelimiter' | 'records'>> & {
  apiKey: string | undefined;
};

function integer(name: string, value: number | undefined, fallback: number, minimum: number): number {
  const chosen = value ?? fallback;
  if (!Number.isSafeInteger(chosen) || chosen < minimum) throw new InvalidInputError(`${name} must be an integer of at least ${minimum}, got ${chosen}`);
  return chosen;
}

export function resolveServerOptions(options: RewardServerOptions): ResolvedServerOptions {
  const requestTimeoutMs = integer('requestTimeoutMs', options.requestTimeoutMs, 60_000, 1);
  if (options.apiKey !== undefined && options.apiKey.trim() === '') throw new InvalidInputError('apiKey must not be empty');
  return {
    host: options.host ?? '127.0.0.1',
    port: integer('port', options.port, 8000, 0),
    apiKey: options.apiKey,
    allowUnauthenticatedRemote: options.allowUnauthenticatedRemote ?? false,
    modelName: options.modelName ?? 'reward-lens',
    maxBatchTokens: integer('maxBatchTokens', options.maxBatchTokens, 16_384, 1),
    maxBatchSize: integer('maxBatchSize', options.maxBatchSize, 32, 1),
    maxWaitMs: integer('maxWaitMs', options.maxWaitMs, 0, 0),
    maxBodyBytes: integer('maxBodyBytes', options.maxBodyBytes, 4 * 1024 * 1024, 1),
    maxRequestTokens: integer('maxRequestTokens', options.maxRequestTokens, 65_536, 1),
    requestTimeoutMs,
    shutdownTimeoutMs: integer('shutdownTimeoutMs', options.shutdownTimeoutMs, requestTimeoutMs + 5000, 0),
    aggregate: options.aggregate ?? 'min',
    truncation: options.truncation ?? 'none',
    log: options.log ?? ((line: string) => process.stderr.write(`${line}\n`)),
  };
}
