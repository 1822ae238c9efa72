import { RewardLensError } from '@reward-lens/core';

/** A request to a remote server that got no complete answer within its time limit (per attempt; for a stream, per chunk). */
export class RemoteTimeoutError extends RewardLensError {
  static readonly code = 'REMOTE_TIMEOUT';
  readonly url: string;
  readonly timeoutMs: number;
  /** Attempts made, each timed out. */
  readonly attempts: number;

  constructor(url: string, timeoutMs: number, attempts = 1) {
    super(
      RemoteTimeoutError.code,
      `${url} gave no answer within ${timeoutMs} ms${attempts > 1 ? ` in ${attempts} attempts` : ''} (raise the timeout, or lower the concurrency)`,
    );
    this.name = 'RemoteTimeoutError';
    this.url = url;
    this.timeoutMs = timeoutMs;
    this.attempts = attempts;
  }

  static override isInstance(value: unknown): value is RemoteTimeoutError {
    return RewardLensError.hasCode(value, RemoteTimeoutError.code);
  }
}
