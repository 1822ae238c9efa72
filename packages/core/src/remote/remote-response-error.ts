import { RewardLensError } from '@reward-lens/spec';

/**
 * A remote engine's answer that cannot be mapped back to steps: not the protocol's shape, a row
 * count that does not match the steps, rows of the wrong width, or rows that are not probabilities.
 */
export class RemoteResponseError extends RewardLensError {
  static readonly code = 'REMOTE_RESPONSE';
  readonly url: string;

  constructor(url: string, message: string, options?: { cause?: unknown }) {
    super(RemoteResponseError.code, `${url}: ${message}`, options);
    this.name = 'RemoteResponseError';
    this.url = url;
  }

  static override isInstance(value: unknown): value is RemoteResponseError {
    return RewardLensError.hasCode(value, RemoteResponseError.code);
  }
}
