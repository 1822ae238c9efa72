import { RewardLensError } from '@reward-lens/core';

/**
 * A remote server's answer that cannot be read: not JSON, not the protocol's shape, a stream cut
 * off, or (vLLM) rows that do not map back to steps: a row count that does not match the steps,
 * rows of the wrong width, or rows that are not probabilities.
 */
export class RemoteResponseError extends RewardLensError {
  static readonly code = 'REMOTE_RESPONSE';
  readonly url: string;
  /** Attempts made, the first included. */
  readonly attempts: number;

  constructor(url: string, message: string, options?: { cause?: unknown; attempts?: number }) {
    super(RemoteResponseError.code, `${url}: ${message}${(options?.attempts ?? 1) > 1 ? ` (after ${options!.attempts} attempts)` : ''}`, options);
    this.name = 'RemoteResponseError';
    this.url = url;
    this.attempts = options?.attempts ?? 1;
  }

  static override isInstance(value: unknown): value is RemoteResponseError {
    return RewardLensError.hasCode(value, RemoteResponseError.code);
  }
}
