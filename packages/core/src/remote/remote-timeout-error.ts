import { RewardLensError } from '@reward-lens/spec';

/** A request to a remote engine that got no complete answer within its time limit. */
export class RemoteTimeoutError extends RewardLensError {
  static readonly code = 'REMOTE_TIMEOUT';
  readonly url: string;
  readonly timeoutMs: number;

  constructor(url: string, timeoutMs: number) {
    super(RemoteTimeoutError.code, `${url} gave no answer within ${timeoutMs} ms (raise the timeout, or lower the concurrency)`);
    this.name = 'RemoteTimeoutError';
    this.url = url;
    this.timeoutMs = timeoutMs;
  }

  static override isInstance(value: unknown): value is RemoteTimeoutError {
    return RewardLensError.hasCode(value, RemoteTimeoutError.code);
  }
}
